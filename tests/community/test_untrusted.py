"""What a member sends, made safe before it is stored or shown; and the command line's
quoted values, which `/drafts edit` titles need."""

from __future__ import annotations

import pytest

from bot.commands.parse import parse_line
from bot.community import untrusted
from bot.community.plan import digest_of


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("@everyone 看这里", "@\u200beveryone 看这里"),
        ("@HERE and @channel", "@\u200bHERE and @\u200bchannel"),
        ("<@123> <@!45> <@&6> <#7> <!here> <!subteam^S1>",
         "<\u200b@123> <\u200b@!45> <\u200b@&6> <\u200b#7> <\u200b!here> <\u200b!subteam^S1>"),
        ("a@b.com <b>bold</b> 1 < 2", "a@b.com <b>bold</b> 1 < 2"),
    ],
)  # fmt: skip
def test_mentions_are_inert(text: str, shown: str) -> None:
    assert untrusted.neutralised(text) == shown


def test_titles_are_one_line_capped_and_escaped_where_shown() -> None:
    title = untrusted.title("  什么是\n  *KV* cache？ " + "长" * 200)
    assert "\n" not in title and len(title) == untrusted.MAX_TITLE and title.endswith("…")
    assert untrusted.escaped("*KV* [x](y) `z` _w_") == r"\*KV\* \[x\]\(y\) \`z\` \_w\_"


def test_a_report_pasted_again_with_other_line_ends_is_the_same_report() -> None:
    assert digest_of("标题\nQ: 一？\n答。\n") == digest_of("标题\r\n\r\nQ:  一？\r\n答。")
    assert digest_of("标题\nQ: 一？\n") != digest_of("标题\nQ: 二？\n")


def test_a_quoted_value_keeps_its_spaces() -> None:
    name, options = parse_line('/drafts edit s.gil title:"Python 的 GIL" kind:qa')
    assert (name, options) == ("drafts", {"action": "edit", "id": "s.gil",
                                          "title": "Python 的 GIL", "kind": "qa"})  # fmt: skip
    assert parse_line("/schedule set 09:00 UTC")[1]["time"] == "09:00"  # no quote, as before
