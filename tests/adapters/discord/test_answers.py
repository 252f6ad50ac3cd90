"""Answering an open question on Discord, through the real discord.py client and the local
Discord: "Answer this" under `/question` opens a modal with the core's one field, its
submission thanks the member privately and posts the answer in the channel with "Use as
explanation"; a member without Manage Messages is refused, a moderator adopts it, and
`/answer` then shows it with its author."""

from __future__ import annotations

import re
from typing import Any

from bot.types import ChannelRef, Invocation, Locale, User
from tests.adapters.discord.conftest import Running
from tests.adapters.discord.stub import CHANNEL_ID, GUILD_ID
from tests.adapters.discord.test_interactions import COMMAND, MODAL, answered, slash
from tests.adapters.discord.test_mistakes import MOD, click, filled, inputs

REPORT = "字节 AI Infra 实习 一面\nQ: 手撕：环形缓冲区\n"
ANSWER = "Keep a **head** and a tail index @everyone"


async def open_item(bot: Running) -> str:
    """A report shared in the guild and its question approved: an item without explanation."""
    where, mod = ChannelRef("discord", CHANNEL_ID, GUILD_ID), User("discord", MOD[0], MOD[1],
                                                                   is_moderator=True)  # fmt: skip
    shared = await bot.app.core.handle(Invocation("import", {"text": REPORT}, mod, where,
                                                  Locale.EN))  # fmt: skip
    found = re.search(r"`(s\.[a-z0-9.-]+)`", shared.body)
    assert found is not None, shared.body
    approve = Invocation("drafts", {"action": "approve", "id": found.group(1)}, mod, where)
    assert "Approved" in (await bot.app.core.handle(approve)).body
    return found.group(1)


def buttons(message: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {b["custom_id"]: b for row in message["components"] for b in row["components"]}


async def test_an_answer_from_a_modal_is_posted_and_adopted_by_a_moderator(
    bot: Running,
) -> None:
    stub, item = bot.stub, await open_item(bot)
    shown = await answered(stub, await stub.interact(COMMAND, slash("question", id=item),
                                                     locale="zh-CN"))  # fmt: skip
    assert "待解答" in shown["embeds"][0]["description"]
    assert buttons(shown)[f"contribute:{item}"]["label"] == "我来回答"

    iid = await click(stub, f"contribute:{item}", shown, locale="zh-CN")
    modal = await stub.wait_for(lambda: stub.callback(iid))
    assert modal["type"] == 9 and modal["data"]["custom_id"] == f"code:contribute:{item}"
    [field] = inputs(modal).values()
    assert (field["custom_id"], field["style"], field["max_length"], field["required"]) == (
        "text", 2, 3000, True)  # fmt: skip
    before = len(stub.calls("POST", f"/channels/{CHANNEL_ID}/messages"))
    sent = filled(f"code:contribute:{item}", text=ANSWER)
    thanks = await answered(stub, await stub.interact(MODAL, sent, locale="zh-CN"))
    assert thanks["flags"] == 64 and "谢谢" in thanks["embeds"][0]["description"]
    [post] = stub.calls("POST", f"/channels/{CHANNEL_ID}/messages")[before:]
    [embed] = post.body["embeds"]
    assert "`alice`" in embed["description"] and "@\u200beveryone" in embed["description"]
    adopt = buttons(post.body)["adopt:1"]
    assert adopt["label"] == "Use as explanation"

    refused = await answered(stub, await click(stub, "adopt:1", post.body))
    assert refused["flags"] == 64 and "moderators" in refused["embeds"][0]["description"]
    done = await answered(stub, await click(stub, "adopt:1", post.body, member=MOD,
                                            moderator=True))  # fmt: skip
    assert "is now the explanation" in done["embeds"][0]["description"]
    explained = await answered(stub, await stub.interact(COMMAND, slash("answer", id=item)))
    description = explained["embeds"][0]["description"]
    assert "Keep a **head**" in description and "*Answer by `alice`*" in description
