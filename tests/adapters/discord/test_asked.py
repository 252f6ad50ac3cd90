"""How often a question was asked, on Discord through the real discord.py client against the
local Discord: the card's embed has the asked field, in the member's language, and
`/questions sort:asked` pages stay most-asked-first when the Next button is pressed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.content.loader import load_bank
from bot.types import ActionKind
from tests.adapters.discord.conftest import Running
from tests.adapters.discord.stub import CHANNEL_ID, message_json
from tests.adapters.discord.test_interactions import COMMAND, COMPONENT, answered, slash
from tests.asked import write_asked_bank


async def _bank(bot: Running, content_dir: Path) -> None:
    write_asked_bank(content_dir)
    await load_bank(bot.app.db, content_dir)


async def test_the_card_embed_carries_the_asked_field(bot: Running, content_dir: Path) -> None:
    await _bank(bot, content_dir)
    iid = await bot.stub.interact(COMMAND, slash("question", id="kv-cache-size"))
    [embed] = (await answered(bot.stub, iid))["embeds"]
    assert {"name": "Frequency", "value": "Asked in 3 reports · ByteDance (first round, second "
            "round), Alibaba (second round)", "inline": False} in embed["fields"]  # fmt: skip
    iid = await bot.stub.interact(COMMAND, slash("question", id="many-companies"),
                                  locale="zh-CN")  # fmt: skip
    [embed] = (await answered(bot.stub, iid))["embeds"]
    assert {"name": "考频", "value": "被 6 篇面经问到 · 小米、快手、百度 等另 2 家",
            "inline": False} in embed["fields"]  # fmt: skip
    iid = await bot.stub.interact(COMMAND, slash("question", id="written-here"))
    [embed] = (await answered(bot.stub, iid))["embeds"]
    assert embed["title"] == "自己写的题"
    assert all(f["name"] != "Frequency" for f in embed["fields"])


async def test_the_next_page_button_keeps_the_most_asked_order(
    bot: Running, content_dir: Path
) -> None:
    await _bank(bot, content_dir)
    iid = await bot.stub.interact(COMMAND, slash("questions", sort="asked"))
    first = await answered(bot.stub, iid)
    assert first["embeds"][0]["description"].splitlines()[0].endswith("· asked ×6")
    [button] = first["components"][0]["components"]
    assert button["custom_id"] == f"{ActionKind.BROWSE}:sort=asked;page=2"
    clicked: dict[str, Any] = {"custom_id": button["custom_id"], "component_type": 2}
    message = message_json(CHANNEL_ID, bot.stub.next_id(), first)
    second = await answered(bot.stub, await bot.stub.interact(COMPONENT, clicked,
                                                              message=message))  # fmt: skip
    rows = second["embeds"][0]["description"].splitlines()
    assert [r.split("`")[1] for r in rows] == ["often-01", "often-05", "often-09", "python-gil",
                                               "ring-allreduce", "often-00", "often-04",
                                               "often-08", "written-here"]  # fmt: skip
