"""Code into the grader from Discord: the form behind the button, `/submit` with a file or a
form, `/run`, and code that mentions the bot; the real sandbox grades each. A submission
that waits behind others is told its place where its verdict then appears."""

from __future__ import annotations

from typing import Any

from tests.adapters.discord.conftest import Running
from tests.adapters.discord.stub import BOT_ID, BOT_USER, CHANNEL_ID, DiscordStub, user
from tests.adapters.discord.test_interactions import (
    COMMAND,
    COMPONENT,
    MODAL,
    _posted,
    answered,
    slash,
)
from tests.grading.busy import busy

SOLUTION = """```python
def my_pow(x: float, n: int) -> float:
    if n < 0:
        x, n = 1.0 / x, -n
    result = 1.0
    while n:
        if n & 1:
            result *= x
        n >>= 1
        if n:
            x *= x
    return result
```"""


def form_submit(route: str, code: str) -> dict[str, Any]:
    return {"custom_id": route, "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "code", "value": code}]}]}  # fmt: skip


async def test_the_submit_button_opens_a_form_graded_with_a_verdict(graded_bot: Running) -> None:
    stub = graded_bot.stub
    clicked = {"custom_id": "submit:fast-power", "component_type": 2}
    iid = await stub.interact(COMPONENT, clicked, message=_posted(stub))
    form = await stub.wait_for(lambda: stub.callback(iid))
    assert form["type"] == 9
    assert form["data"]["custom_id"] == "code:submit:fast-power"
    assert form["data"]["title"] == "Solution: fast-power"
    [row] = form["data"]["components"]
    field = row["components"][0] if "components" in row else row["component"]
    assert field["custom_id"] == "code" and field["style"] == 2 and field["max_length"] == 4000
    graded = await stub.interact(MODAL, form_submit("code:submit:fast-power", SOLUTION))
    assert (await stub.wait_for(lambda: stub.callback(graded)))["type"] == 5  # deferred first
    [edit] = await stub.wait_for(lambda: stub.calls("PATCH", f"/webhooks/1100/tok-{graded}/"))
    assert "Accepted" in edit.body["embeds"][0]["title"]


async def test_submit_without_a_file_opens_the_form_and_with_one_grades_it(
    graded_bot: Running,
) -> None:
    stub = graded_bot.stub
    asked = await stub.interact(COMMAND, slash("submit", problem="fast-power"))
    assert (await stub.wait_for(lambda: stub.callback(asked)))["type"] == 9
    upload = stub.upload("solution.py", SOLUTION.strip("`").removeprefix("python").encode())
    data = {**slash("submit", problem="fast-power"), "resolved": {"attachments": {
        upload["id"]: upload}}}  # fmt: skip
    data["options"].append({"name": "code", "type": 11, "value": upload["id"]})
    graded = await stub.interact(COMMAND, data)
    [edit] = await stub.wait_for(lambda: stub.calls("PATCH", f"/webhooks/1100/tok-{graded}/"))
    assert "Accepted" in edit.body["embeds"][0]["title"]


async def test_a_file_that_is_not_python_is_refused_privately(graded_bot: Running) -> None:
    stub = graded_bot.stub
    upload = stub.upload("notes.txt", b"hello")
    data = {**slash("submit", problem="fast-power"), "resolved": {"attachments": {
        upload["id"]: upload}}}  # fmt: skip
    data["options"].append({"name": "code", "type": 11, "value": upload["id"]})
    refused = await answered(stub, await stub.interact(COMMAND, data))
    assert refused["flags"] == 64 and ".py" in refused["embeds"][0]["description"]


async def test_run_takes_a_snippet_through_its_form(graded_bot: Running) -> None:
    stub = graded_bot.stub
    asked = await stub.interact(COMMAND, slash("run"))
    form = await stub.wait_for(lambda: stub.callback(asked))
    assert form["data"]["custom_id"] == "code:run:" and form["data"]["title"] == "Run Python"
    ran = await stub.interact(MODAL, form_submit("code:run:", "```python\nprint(6 * 7)\n```"))
    [edit] = await stub.wait_for(lambda: stub.calls("PATCH", f"/webhooks/1100/tok-{ran}/"))
    assert "42" in edit.body["embeds"][0]["description"]


async def test_code_that_mentions_the_bot_is_graded_in_place(graded_bot: Running) -> None:
    stub = graded_bot.stub
    message_id = stub.next_id()
    await stub.dispatch(
        "MESSAGE_CREATE", message_create(stub, message_id, f"<@{BOT_ID}> fast-power\n{SOLUTION}")
    )
    [answer] = await stub.wait_for(lambda: stub.calls("POST", f"/channels/{CHANNEL_ID}/messages"),
                                   within=20)  # fmt: skip
    assert str(answer.body["message_reference"]["message_id"]) == message_id
    assert "Accepted" in answer.body["embeds"][0]["title"]
    assert stub.calls("POST", f"/channels/{CHANNEL_ID}/typing")


def message_create(stub: DiscordStub, message_id: str, content: str) -> dict[str, Any]:
    return {
        "id": message_id, "channel_id": CHANNEL_ID, "guild_id": "2200",
        "author": user("7001", "alice"), "content": content, "timestamp": "2026-01-05T09:00:00",
        "edited_timestamp": None, "tts": False, "mention_everyone": False,
        "mentions": [BOT_USER], "mention_roles": [], "attachments": [], "embeds": [],
        "pinned": False, "type": 0, "flags": 0, "components": [],
        "member": {"roles": [], "joined_at": "2026-01-01T00:00:00", "deaf": False, "mute": False},
    }  # fmt: skip


async def test_what_a_run_prints_pings_nobody(graded_bot: Running) -> None:
    stub = graded_bot.stub
    code = "```python\nprint('@everyone @here <@123> <@&456> <#789>')\n```"
    ran = await stub.interact(MODAL, form_submit("code:run:", code))
    [edit] = await stub.wait_for(lambda: stub.calls("PATCH", f"/webhooks/1100/tok-{ran}/"))
    assert edit.body["allowed_mentions"] == {"parse": []}  # Discord refuses to ping at all
    shown = edit.body["embeds"][0]["description"]
    assert "everyone" in shown
    for mention in ("@everyone", "@here", "<@", "<#"):
        assert mention not in shown


async def test_a_submission_that_waits_is_told_its_place_then_its_verdict_replaces_it(
    graded_bot: Running,
) -> None:
    stub = graded_bot.stub
    async with busy(graded_bot.app.grading):  # every slot taken, one more waiting
        graded = await stub.interact(MODAL, form_submit("code:submit:fast-power", SOLUTION))

        def edits() -> list[Any]:
            return stub.calls("PATCH", f"/webhooks/1100/tok-{graded}/")

        [notice] = await stub.wait_for(edits)
        assert "Queued for a grader, 1 ahead of yours" in notice.body["embeds"][0]["description"]
    await stub.wait_for(lambda: len(edits()) == 2)
    assert "Accepted" in edits()[1].body["embeds"][0]["title"]  # in the same message


async def test_code_that_waits_is_answered_with_its_place_then_that_answer_is_its_verdict(
    graded_bot: Running,
) -> None:
    stub = graded_bot.stub
    async with busy(graded_bot.app.grading, waiting=2):
        message_id = stub.next_id()
        content = f"<@{BOT_ID}> fast-power\n{SOLUTION}"
        await stub.dispatch("MESSAGE_CREATE", message_create(stub, message_id, content))
        [notice] = await stub.wait_for(
            lambda: stub.calls("POST", f"/channels/{CHANNEL_ID}/messages"))  # fmt: skip
        assert str(notice.body["message_reference"]["message_id"]) == message_id
        assert "2 ahead of yours" in notice.body["embeds"][0]["description"]
    [verdict] = await stub.wait_for(
        lambda: stub.calls("PATCH", f"/channels/{CHANNEL_ID}/messages/"))  # fmt: skip
    assert "Accepted" in verdict.body["embeds"][0]["title"]
    assert len(stub.calls("POST", f"/channels/{CHANNEL_ID}/messages")) == 1  # edited, not sent
