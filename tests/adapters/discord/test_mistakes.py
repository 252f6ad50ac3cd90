"""Reporting a mistake on Discord, through the real discord.py client and the local Discord:
the button under `/answer` opens a modal with the core's fields, its submission files the
report, a moderator (Manage Messages) pages it with `/reports` and resolves it through the
Resolve modal, and the reporter gets the note as a direct message. Others are refused."""

from __future__ import annotations

from typing import Any

from tests.adapters.discord.conftest import Running
from tests.adapters.discord.stub import CHANNEL_ID, DiscordStub, message_json
from tests.adapters.discord.test_interactions import COMMAND, COMPONENT, MODAL, answered, slash

MOD = ("7002", "mod")


def inputs(modal: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A modal's text inputs by custom_id (rows, or labels wrapping inputs)."""
    found = {}
    for row in modal["data"]["components"]:
        for item in row.get("components") or [row.get("component")]:
            found[item["custom_id"]] = item
    return found


def filled(route: str, **values: str) -> dict[str, Any]:
    return {"custom_id": route, "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]}
        for k, v in values.items()]}  # fmt: skip


async def click(stub: DiscordStub, custom_id: str, shown: dict[str, Any], **who: Any) -> str:
    as_posted = message_json(CHANNEL_ID, stub.next_id(), shown)
    data = {"custom_id": custom_id, "component_type": 2}
    return await stub.interact(COMPONENT, data, message=as_posted, **who)


async def test_a_report_from_a_modal_is_resolved_by_a_moderator_and_the_reporter_told(
    bot: Running,
) -> None:
    stub = bot.stub
    shown = await answered(stub, await stub.interact(COMMAND, slash("answer", id="python-gil")))
    ids = [b["custom_id"] for row in shown["components"] for b in row["components"]]
    assert ids[-1] == "report:python-gil"

    iid = await click(stub, "report:python-gil", shown, locale="zh-CN")
    modal = await stub.wait_for(lambda: stub.callback(iid))
    assert modal["type"] == 9 and modal["data"]["custom_id"] == "code:report:python-gil"
    assert modal["data"]["title"] == "报告错误"
    fields = inputs(modal)
    assert list(fields) == ["text", "quote"]
    text, quote = fields["text"], fields["quote"]
    assert (text["style"], text["max_length"], text["required"]) == (2, 1000, True)
    assert (quote["max_length"], quote["required"]) == (300, False)
    sent = filled("code:report:python-gil", text="The latency is 10 ms, not 10 s @here",
                  quote="大约 10 秒")  # fmt: skip
    thanks = await answered(stub, await stub.interact(MODAL, sent, locale="zh-CN"))
    assert thanks["flags"] == 64 and "版主" in thanks["embeds"][0]["description"]

    refused = await answered(stub, await stub.interact(COMMAND, slash("reports")))
    assert refused["flags"] == 64 and "moderators" in refused["embeds"][0]["description"]
    page = await answered(stub, await stub.interact(COMMAND, slash("reports"), member=MOD,
                                                    moderator=True))  # fmt: skip
    [embed] = page["embeds"]
    assert page["flags"] == 64 and embed["title"] == "Reported mistake 1 of 1"
    assert "10 ms, not 10 s @\u200bhere" in embed["description"]
    assert "大约 10 秒" in embed["description"]
    [resolve] = [b for row in page["components"] for b in row["components"]]
    assert resolve["custom_id"] == "resolve:1" and resolve["label"] == "Resolve"

    taken = await click(stub, "resolve:1", page)  # alice: not a moderator
    form = await stub.wait_for(lambda: stub.callback(taken))
    assert form["type"] == 9 and list(inputs(form)) == ["note"]  # the form opens; sending
    sneaky = await answered(stub, await stub.interact(MODAL, filled("code:resolve:1", note="x")))
    assert "moderators" in sneaky["embeds"][0]["description"]  # it is what is checked
    assert not stub.calls("POST", "/users/@me/channels")

    asked = await click(stub, "resolve:1", page, member=MOD, moderator=True)
    note_form = await stub.wait_for(lambda: stub.callback(asked))
    assert note_form["data"]["custom_id"] == "code:resolve:1"
    assert inputs(note_form)["note"]["required"] is True
    note = filled("code:resolve:1", note="Fixed: 10 ms.")
    done = await answered(stub, await stub.interact(MODAL, note, member=MOD, moderator=True))
    assert "the reporter has your note" in done["embeds"][0]["description"]
    [opened] = stub.calls("POST", "/users/@me/channels")
    assert str(opened.body["recipient_id"]) == "7001"
    [dm] = stub.calls("POST", f"/channels/{stub.dms['7001']}/messages")
    assert dm.body["embeds"][0]["title"] == "你报告的错误"  # in the reporter's language
    assert "Fixed: 10 ms." in dm.body["embeds"][0]["description"]
    none = await answered(stub, await stub.interact(COMMAND, slash("reports"), member=MOD,
                                                    moderator=True))  # fmt: skip
    assert none["embeds"][0]["description"] == "No open reports in this server."


async def test_report_is_a_slash_command_whose_texts_discord_caps(bot: Running) -> None:
    [put] = bot.stub.calls("PUT", "/applications/1100/commands")
    registered = {c["name"]: c for c in put.body}
    options = {o["name"]: o for o in registered["report"]["options"]}
    assert options["text"]["max_length"] == 1000 and options["text"]["required"]
    assert options["quote"]["max_length"] == 300 and not options["quote"]["required"]
    assert "max_length" not in options["id"]
    assert {"reports", "resolve"} <= set(registered)
