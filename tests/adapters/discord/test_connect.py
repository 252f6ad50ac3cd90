"""Start-up against the local Discord: login, command registration, the gateway session."""

from __future__ import annotations

from bot.commands.spec import COMMANDS
from tests.adapters.discord.conftest import Running
from tests.adapters.discord.stub import APP_ID


async def test_login_registers_every_command_from_the_specs(bot: Running) -> None:
    stub = bot.stub
    [put] = stub.calls("PUT", f"/applications/{APP_ID}/commands")
    registered = {c["name"]: c for c in put.body}
    assert list(registered) == [spec.name for spec in COMMANDS]
    question = registered["question"]
    assert {o["name"]: o.get("autocomplete") for o in question["options"]} == {
        "id": True, "topic": True, "kind": None, "lang": None, "difficulty": None}  # fmt: skip
    assert question["name_localizations"]["zh-CN"] == "题目"
    assert registered["answer"]["options"][0] == {
        "type": 3, "name": "id", "required": True, "autocomplete": True,
        "description": "question id, e.g. python-gil",
        "description_localizations": {"zh-CN": "题目 id，例如 python-gil",
                                      "zh-TW": "题目 id，例如 python-gil"}}  # fmt: skip
    schedule = registered["schedule"]
    assert schedule["default_member_permissions"] == "32"  # Manage Server
    subcommands = {s["name"]: [o["name"] for o in s["options"]] for s in schedule["options"]}
    assert subcommands["set"][:2] == ["time", "timezone"] and subcommands["show"] == []
    assert [s["name"] for s in registered["daily"]["options"]] == ["now"]
    assert registered["search"]["default_member_permissions"] is None
    for command in put.body:
        assert 1 <= len(command["name"]) <= 32 and 1 <= len(command["description"]) <= 100
    identify = next(op for op in stub.gateway.ops if op["op"] == 2)
    assert identify["d"]["token"] == stub.token
    assert bot.app.platforms.get("discord") is bot.client.adapter
