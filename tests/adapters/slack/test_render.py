"""Markdown to mrkdwn and replies to Block Kit: pure functions, no Slack."""

from __future__ import annotations

import pytest

from adapters.slack.app import submit_target
from adapters.slack.mrkdwn import from_message, to_mrkdwn
from adapters.slack.render import as_study, parse_action_id, render
from bot.types import Action, ActionKind, Field, Reply, Tone


@pytest.mark.parametrize(
    ("markdown", "mrkdwn"),
    [
        ("**GIL** is a lock", "*GIL* is a lock"),
        ("__bold__ and *italic* and ~~old~~", "*bold* and _italic_ and ~old~"),
        ("## 显存不够怎么办", "*显存不够怎么办*"),
        ("# **Already bold**", "*Already bold*"),
        ("see [NCCL](https://docs.nvidia.com/nccl?a=1&b=2)",
         "see <https://docs.nvidia.com/nccl?a=1&amp;b=2|NCCL>"),
        ("- item one\n* item two", "• item one\n• item two"),
        ("if a < b && c > d", "if a &lt; b &amp;&amp; c &gt; d"),
        ("`**not bold** <x>` stays code", "`**not bold** &lt;x&gt;` stays code"),
        ("```python\nx = a ** 2 < b\n# comment\n```", "```\nx = a ** 2 &lt; b\n# comment\n```"),
        ("2 * 3 * 4", "2 * 3 * 4"),
        ("ping <#C123> and <@U1>", "ping <#C123> and <@U1>"),
        ("<!here> <!channel> <!everyone> <!subteam^S1|team>",
         "&lt;!here&gt; &lt;!channel&gt; &lt;!everyone&gt; &lt;!subteam^S1|team&gt;"),
        ("```\n<!channel>\n```", "```\n&lt;!channel&gt;\n```"),
    ],
)  # fmt: skip
def test_markdown_becomes_mrkdwn(markdown: str, mrkdwn: str) -> None:
    assert to_mrkdwn(markdown) == mrkdwn


def test_a_reply_becomes_header_sections_fields_context_and_buttons() -> None:
    reply = Reply(
        title="What is the GIL?", body="Think it through.", footer="From: 某公司 一面",
        fields=(Field("ID", "`python-gil`"), Field("Topics", "python")),
        actions=(Action(ActionKind.REVEAL_ANSWER, "Show answer", "python-gil"),
                 Action(ActionKind.SUBMIT_SOLUTION, "Submit", "fast-power")),
    )  # fmt: skip
    [message] = render(reply)
    kinds = [b["type"] for b in message.blocks]
    assert kinds == ["header", "section", "section", "context", "actions"]
    assert message.text == "What is the GIL?"
    assert message.blocks[2]["fields"][0]["text"] == "*ID*\n`python-gil`"
    buttons = message.blocks[4]["elements"]
    assert [b["action_id"] for b in buttons] == ["reveal:python-gil", "submit:fast-power"]
    assert parse_action_id(buttons[0]["action_id"], buttons[0]["value"]) == (
        ActionKind.REVEAL_ANSWER, "python-gil")  # fmt: skip
    assert parse_action_id("someone-else:x", "x") is None
    assert submit_target({"blocks": list(message.blocks)}) == "fast-power"


def test_tables_arrive_as_aligned_monospace_and_errors_are_marked() -> None:
    table = "| 方法 | 显存 |\n|---|---|\n| ZeRO-3 | 1/N |\n| DP | 全部 |"
    [message] = render(Reply(body=table, tone=Tone.USER_ERROR, ephemeral=True))
    text = message.blocks[0]["text"]["text"]
    assert text.startswith(":warning: ```") and "|---" not in text
    assert "ZeRO-3  1/N" in text
    assert message.text  # a fallback even without a title


def test_a_cut_inside_code_closes_and_reopens_the_fence() -> None:
    code = "```python\n" + "\n".join(f"x{n} = {n}  # 注释" for n in range(600)) + "\n```"
    messages = render(Reply(title="Code", body=code))
    sections = [b["text"]["text"] for m in messages for b in m.blocks if b["type"] == "section"]
    assert len(sections) > 1
    assert all(s.startswith("```") and s.endswith("```") for s in sections)


def test_core_command_names_become_slack_subcommands() -> None:
    reply = as_study(Reply(body="Usage: `/answer <id>`; try `/search 显存`. Not /answer here.",
                           footer="`/topics`"))  # fmt: skip
    assert reply.body == "Usage: `/study answer <id>`; try `/study search 显存`. Not /answer here."
    assert reply.footer == "`/study topics`"


@pytest.mark.parametrize(
    ("sent", "markdown"),
    [
        ("a &lt; b &amp;&amp; c &gt; d &amp;lt;", "a < b && c > d &lt;"),
        ("```x = 1\ny = 2```", "```\nx = 1\ny = 2\n```"),
        ("```python\nx = 1\n```", "```python\nx = 1\n```"),
        ("see ```print(1)``` and `y`", "see ```\nprint(1)\n``` and `y`"),
    ],
)  # fmt: skip
def test_message_text_becomes_markdown_for_code(sent: str, markdown: str) -> None:
    assert from_message(sent) == markdown
