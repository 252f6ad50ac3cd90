"""Slash commands, autocomplete, buttons and forms, delivered by the local Discord to the real
client, answered through Discord's interaction callback and webhooks."""

from __future__ import annotations

from typing import Any

from tests.adapters.discord.conftest import Running
from tests.adapters.discord.stub import CHANNEL_ID, DiscordStub

COMMAND, COMPONENT, AUTOCOMPLETE, MODAL = 2, 3, 4, 5


def slash(name: str, **options: str) -> dict[str, Any]:
    given = [{"name": k, "type": 3, "value": v} for k, v in options.items()]
    return {"id": "9", "name": name, "type": 1, "options": given}


def schedule_set(time: str, **more: str) -> dict[str, Any]:
    """`/schedule set time:<time> timezone:UTC ...` as Discord sends a subcommand."""
    given = {"time": time, "timezone": "UTC", **more}
    options = [{"name": k, "type": 3, "value": v} for k, v in given.items()]
    return {"id": "9", "name": "schedule", "type": 1,
            "options": [{"name": "set", "type": 1, "options": options}]}  # fmt: skip


async def answered(stub: DiscordStub, iid: str) -> dict[str, Any]:
    """The first message that answers interaction `iid` (a callback or a follow-up)."""
    return (await stub.wait_for(lambda: stub.replies(iid)))[0]  # type: ignore[no-any-return]


async def test_a_slash_command_is_answered_with_an_embed_and_a_button(bot: Running) -> None:
    iid = await bot.stub.interact(COMMAND, slash("question", id="python-gil"))
    message = await answered(bot.stub, iid)
    assert bot.stub.callback(iid)["type"] == 4  # type: ignore[index]
    [embed] = message["embeds"]
    assert embed["title"] == "What is the GIL?"
    assert {"name": "ID", "value": "`python-gil`", "inline": True} in embed["fields"]
    button, chinese = message["components"][0]["components"]
    assert button["custom_id"] == "reveal:python-gil" and button["label"] == "Show answer"
    assert chinese["custom_id"] == "question-in:zh:python-gil" and chinese["label"] == "中文"
    assert not message.get("flags")  # public


async def test_replies_follow_the_interaction_locale(bot: Running) -> None:
    iid = await bot.stub.interact(COMMAND, slash("search", query="显存"), locale="zh-CN")
    message = await answered(bot.stub, iid)
    assert message["embeds"][0]["title"] == "搜索：显存"
    assert "gpu-memory" in message["embeds"][0]["description"]
    assert message["components"][0]["components"][0]["label"] == "打开 gpu-memory"


async def test_autocomplete_offers_questions_by_id_and_title(bot: Running) -> None:
    data = {"id": "9", "name": "answer", "type": 1,
            "options": [{"name": "id", "type": 3, "value": "显存", "focused": True}]}  # fmt: skip
    iid = await bot.stub.interact(AUTOCOMPLETE, data, locale="zh-CN")
    callback = await bot.stub.wait_for(lambda: bot.stub.callback(iid))
    assert callback["type"] == 8
    assert callback["data"]["choices"] == [{"name": "显存不够怎么办？ · gpu-memory",
                                            "value": "gpu-memory"}]  # fmt: skip


async def test_a_button_click_reveals_the_answer(bot: Running) -> None:
    posted = await answered(
        bot.stub, await bot.stub.interact(COMMAND, slash("question", id="python-gil"))
    )
    clicked = {"custom_id": "reveal:python-gil", "component_type": 2}
    iid = await bot.stub.interact(COMPONENT, clicked, message=_as_message(bot.stub, posted))
    message = await answered(bot.stub, iid)
    assert message["embeds"][0]["title"] == "Answer: What is the GIL?"
    assert message["embeds"][0]["description"].startswith("GIL是一把全局互斥锁")


async def test_the_language_button_shows_the_other_language(bot: Running) -> None:
    posted = await answered(
        bot.stub, await bot.stub.interact(COMMAND, slash("question", id="python-gil"))
    )
    clicked = {"custom_id": "question-in:zh:python-gil", "component_type": 2}
    iid = await bot.stub.interact(COMPONENT, clicked, message=_as_message(bot.stub, posted))
    message = await answered(bot.stub, iid)
    assert message["embeds"][0]["title"] == "Python全局解释器锁（GIL）是什么？"
    [*_, english] = message["components"][0]["components"]
    assert english["custom_id"] == "question-in:en:python-gil" and english["label"] == "English"


async def test_a_member_without_manage_server_cannot_change_the_schedule(bot: Running) -> None:
    data = schedule_set("09:00")
    refused = await answered(bot.stub, await bot.stub.interact(COMMAND, data, admin=False))
    assert refused["flags"] == 64  # ephemeral
    assert "Only members who can manage" in refused["embeds"][0]["description"]
    assert bot.scheduler.next_due() is None  # nothing was saved
    accepted = await answered(bot.stub, await bot.stub.interact(COMMAND, data, admin=True))
    assert accepted["embeds"][0]["title"] == "Daily question in this channel"
    assert "Saved" in accepted["embeds"][0]["description"]
    assert bot.scheduler.next_due() is not None


def _posted(stub: DiscordStub) -> dict[str, Any]:
    return _as_message(stub, {"embeds": [], "components": []})


def _as_message(stub: DiscordStub, body: dict[str, Any]) -> dict[str, Any]:
    from tests.adapters.discord.stub import message_json

    return message_json(CHANNEL_ID, stub.next_id(), body)
