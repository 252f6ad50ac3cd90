"""Deadlines, failures and code in chat: how the bot answers when the work is slow or breaks."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from bot.core import Studybot
from bot.ports import ChatAdapter
from bot.schedule.scheduler import Scheduler
from bot.types import Invocation, Reply
from tests.adapters.discord.conftest import Running, connected
from tests.adapters.discord.stub import APP_ID, DiscordStub
from tests.adapters.discord.test_interactions import COMMAND, slash


class HeldCore(Studybot):
    """The real core, except that each command waits for the test to release it, or fails."""

    def __init__(self, core: Studybot) -> None:
        self.__dict__.update(core.__dict__)
        self.release = asyncio.Event()
        self.broken = False

    async def handle(self, inv: Invocation) -> Reply:
        await self.release.wait()
        if self.broken:
            raise RuntimeError("the database went away")
        return await super().handle(inv)


@pytest.fixture
async def held(
    stub: DiscordStub, discord_core: Studybot, discord_scheduler: Scheduler,
    adapters: dict[str, ChatAdapter],
) -> AsyncIterator[tuple[Running, HeldCore]]:  # fmt: skip
    core = HeldCore(discord_core)
    options = {"defer_after": 0.05}
    async with connected(stub, core, discord_scheduler, adapters,
                         client_options=options) as running:  # fmt: skip
        yield running, core


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
    assert edit.body["embeds"][0]["title"].startswith("Python全局解释器锁")


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
