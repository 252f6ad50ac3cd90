"""Platforms attach and detach while the bot runs: schedules follow them, through restarts,
whichever platform connects first. The bot is built by `open_app` and its loop runs as in
`studybot run`; the clock and the platforms are fakes at its boundaries."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import aiosqlite

from bot.app import App, open_app, running_scheduler
from bot.settings import Settings
from bot.types import ChannelRef, Invocation, Reply, Tone, User
from tests.fakes import FakeAdapter, FakeClock
from tests.waiting import PATIENCE, until

CHANNEL = ChannelRef("test", "study", "guild")
ADMIN = User("test", "a1", "admin", is_admin=True)


def at(hour: int, minute: int) -> datetime:
    return datetime(2026, 1, 5, hour, minute, tzinfo=UTC)  # a Monday


def command(name: str, **options: str) -> Invocation:
    return Invocation(name, options, user=ADMIN, channel=CHANNEL)


@contextlib.asynccontextmanager
async def running(settings: Settings, clock: FakeClock) -> AsyncIterator[App]:
    """One run of the bot: its loop started before any platform is connected."""
    async with open_app(settings, clock=clock, grading=False) as app, running_scheduler(app):
        await asyncio.sleep(0)
        yield app


async def posted(adapter: FakeAdapter, count: int) -> None:
    async def enough() -> None:
        while len(adapter.sent) < count:
            adapter.posted.clear()
            await adapter.posted.wait()

    await asyncio.wait_for(enough(), PATIENCE)


async def saved_schedule(settings: Settings, clock: FakeClock) -> None:
    """An earlier run, where an admin set 09:30 UTC with the answer an hour later."""
    async with running(settings, clock) as app:
        await app.platforms.attach("test", FakeAdapter())
        reply = await app.core.handle(
            command("schedule", action="set", time="09:30", timezone="UTC", answer="+1h")
        )
        assert reply.tone is Tone.INFO


async def test_a_schedule_saved_before_a_restart_posts_once_its_platform_attaches(
    settings: Settings, loaded_db: aiosqlite.Connection, clock: FakeClock
) -> None:
    await saved_schedule(settings, clock)
    chat = FakeAdapter()
    async with running(settings, clock) as app:
        await app.platforms.attach("test", chat)
        clock.set(at(9, 30))
        await posted(chat, 1)
    async with running(settings, clock) as app:  # restarted between question and answer
        again = FakeAdapter()
        await app.platforms.attach("test", again)
        clock.set(at(10, 30))
        await posted(again, 1)
    [answer] = again.sent
    assert answer.thread_of == chat.sent[0].ref and answer.reply.title is not None
    assert answer.reply.title.startswith("Answer: ")


async def test_a_post_due_while_its_platform_is_away_is_sent_when_it_comes_back(
    settings: Settings, loaded_db: aiosqlite.Connection, clock: FakeClock
) -> None:
    await saved_schedule(settings, clock)
    chat = FakeAdapter()
    async with running(settings, clock) as app:
        await app.platforms.attach("test", chat)
        app.platforms.detach("test")
        clock.set(at(9, 31))
        await asleep_after(clock, at(9, 31))  # the loop claimed the post and parked it
        assert chat.sent == []
        naps = clock.naps
        await app.platforms.attach("test", chat)  # a reconnect
        await posted(chat, 1)
        # The loop, woken by the attach, has sent and sleeps again: with the clock still,
        # nothing more can be sent before the bot stops.
        await until(lambda: clock.naps > naps and len(clock.sleeping_until) == 2)
    assert len(chat.sent) == 1


async def asleep_after(clock: FakeClock, instant: datetime) -> None:
    """Until the loop and its heartbeat both sleep again, to times after `instant`: the
    loop has finished the tick that `clock.set(instant)` woke it for."""
    await until(lambda: len(s := clock.sleeping_until) == 2 and s[0] > instant)


async def test_daily_now_works_whichever_platform_connected_first(
    settings: Settings, loaded_db: aiosqlite.Connection, clock: FakeClock
) -> None:
    await saved_schedule(settings, clock)
    other, chat = FakeAdapter(), FakeAdapter()
    async with running(settings, clock) as app:
        await app.platforms.attach("other", other)
        await app.platforms.attach("test", chat)
        reply = await app.core.handle(command("daily", action="now"))
    assert reply.body == "Posted the next question."
    assert len(chat.sent) == 1 and other.sent == []


async def test_daily_now_on_a_platform_that_is_not_attached_says_so(
    settings: Settings, loaded_db: aiosqlite.Connection, clock: FakeClock
) -> None:
    await saved_schedule(settings, clock)
    async with running(settings, clock) as app:
        reply: Reply = await app.core.handle(command("daily", action="now"))
    assert reply.tone is Tone.USER_ERROR
    assert reply.body == (
        "Nothing was posted: the bot is not connected to Test right now. Try again once it is back."
    )
