"""Deadlines, failures and code in chat: how the bot answers when the work is slow or breaks."""

from __future__ import annotations

import logging

import pytest

from tests.adapters.discord.conftest import HeldCore, Running
from tests.adapters.discord.stub import APP_ID
from tests.adapters.discord.test_interactions import COMMAND, slash


async def test_work_past_the_deadline_is_deferred_then_followed_up(
    held: tuple[Running, HeldCore],
) -> None:
    bot, core = held
    iid = await bot.stub.interact(COMMAND, slash("question", id="python-gil"))
    deferred = await bot.stub.wait_for(lambda: bot.stub.callback(iid))
    assert deferred["type"] == 5  # "thinking", before Discord's 3 s run out
    core.release.set()
    [edit] = await bot.stub.wait_for(
        lambda: bot.stub.calls("PATCH", f"/webhooks/{APP_ID}/tok-{iid}/messages/@original")
    )
    assert edit.body["embeds"][0]["title"] == "What is the GIL?"


async def test_a_late_private_reply_replaces_the_public_placeholder(
    held: tuple[Running, HeldCore],
) -> None:
    bot, core = held
    iid = await bot.stub.interact(COMMAND, slash("answer", id="no-such-question"))
    await bot.stub.wait_for(lambda: bot.stub.callback(iid))
    core.release.set()
    [followup] = await bot.stub.wait_for(
        lambda: bot.stub.calls("POST", f"/webhooks/{APP_ID}/tok-{iid}")
    )
    assert followup.body["flags"] == 64
    assert "There is no question `no-such-question`" in followup.body["embeds"][0]["description"]
    assert bot.stub.calls("DELETE", f"/webhooks/{APP_ID}/tok-{iid}/messages/@original")


async def test_a_failure_is_an_ephemeral_apology_with_a_reference_in_the_log(
    held: tuple[Running, HeldCore], caplog: pytest.LogCaptureFixture
) -> None:
    bot, core = held
    core.broken = True
    core.release.set()
    with caplog.at_level(logging.ERROR):
        iid = await bot.stub.interact(COMMAND, slash("topics"))
        [apology] = await bot.stub.wait_for(lambda: bot.stub.replies(iid))
    assert apology["flags"] == 64
    ref = apology["content"].split("`")[1]
    assert apology["content"] == f"Sorry, something went wrong on my side (ref `{ref}`)."
    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
    assert f"(ref {ref})" in logged and "the database went away" in caplog.text
    assert bot.stub.token not in caplog.text
