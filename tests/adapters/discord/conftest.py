"""The bot's real discord.py client, connected to a local Discord (`stub.DiscordStub`)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiosqlite
import discord.gateway
import discord.http
import pytest

from adapters.discord.client import StudyClient
from adapters.discord.run import make_client, run_client, use_endpoints
from bot.commands.context import Context
from bot.core import Studybot
from bot.grading.admission import Admission
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import load_problems
from bot.grading.service import Grading
from bot.ports import ChatAdapter
from bot.schedule.scheduler import Scheduler
from bot.settings import DiscordSettings, Secret
from bot.store.questions import QuestionStore
from bot.store.schedules import ScheduleStore
from bot.store.submissions import SubmissionStore
from tests.adapters.discord.stub import TOKEN, DiscordStub
from tests.fakes import REPO, FakeClock


@dataclass
class Running:
    """A connected bot: its client, the serving task, the core's scheduler and the stub."""

    client: StudyClient
    task: asyncio.Task[None]
    scheduler: Scheduler
    adapters: dict[str, ChatAdapter]
    stub: DiscordStub


@pytest.fixture
async def stub() -> AsyncIterator[DiscordStub]:
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    async with DiscordStub() as running:
        yield running
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


def settings_for(stub: DiscordStub, token: str = TOKEN, **extra: object) -> DiscordSettings:
    return DiscordSettings(token=Secret(token), api_base_url=stub.api,
                           gateway_url=stub.ws_url, **extra)  # type: ignore[arg-type]  # fmt: skip


@pytest.fixture
def adapters() -> dict[str, ChatAdapter]:
    return {}


@pytest.fixture
def discord_scheduler(
    loaded_db: aiosqlite.Connection, clock: FakeClock, adapters: dict[str, ChatAdapter]
) -> Scheduler:
    return Scheduler(ScheduleStore(loaded_db), QuestionStore(loaded_db), clock, adapters)


@pytest.fixture
async def grading(loaded_db: aiosqlite.Connection, clock: FakeClock) -> AsyncIterator[Grading]:
    """The real grading sandbox over the bundled bank's problems."""
    sandbox = Sandbox(warm=1)
    await sandbox.start()
    try:
        grader = Grader(sandbox, load_problems(REPO / "content"))
        yield Grading(grader, Admission(clock), SubmissionStore(loaded_db), clock)
    finally:
        await sandbox.close()


@pytest.fixture
def discord_core(
    loaded_db: aiosqlite.Connection, clock: FakeClock, discord_scheduler: Scheduler
) -> Studybot:
    context = Context(QuestionStore(loaded_db), clock, random.Random(7),
                      ScheduleStore(loaded_db), discord_scheduler)  # fmt: skip
    return Studybot(context)


@pytest.fixture
def grading_core(
    loaded_db: aiosqlite.Connection, clock: FakeClock, discord_scheduler: Scheduler,
    grading: Grading,
) -> Studybot:  # fmt: skip
    context = Context(QuestionStore(loaded_db), clock, random.Random(7),
                      ScheduleStore(loaded_db), discord_scheduler, grading)  # fmt: skip
    return Studybot(context)


@contextlib.asynccontextmanager
async def connected(
    stub: DiscordStub,
    core: Studybot,
    scheduler: Scheduler,
    adapters: dict[str, ChatAdapter],
    *,
    client_options: dict[str, Any] | None = None,
    **extra: object,
) -> AsyncIterator[Running]:
    """Start the bot as `studybot run` does, wait until it is ready, stop it afterwards."""
    settings = settings_for(stub, **extra)
    client_options = client_options or {}
    use_endpoints(settings)
    client = make_client(core, settings, guild_ready_timeout=0.05, **client_options)
    task = asyncio.create_task(run_client(client, adapters, settings), name="discord")
    ready = asyncio.create_task(client.wait_until_ready())
    await asyncio.wait({task, ready}, timeout=5, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        ready.cancel()
        task.result()  # re-raise why start-up failed, rather than time out
    assert ready.done(), "the bot did not become ready"
    try:
        yield Running(client, task, scheduler, adapters, stub)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


@pytest.fixture
async def bot(
    stub: DiscordStub, discord_core: Studybot, discord_scheduler: Scheduler,
    adapters: dict[str, ChatAdapter],
) -> AsyncIterator[Running]:  # fmt: skip
    async with connected(stub, discord_core, discord_scheduler, adapters) as running:
        yield running


@pytest.fixture
async def graded_bot(
    stub: DiscordStub, grading_core: Studybot, discord_scheduler: Scheduler,
    adapters: dict[str, ChatAdapter],
) -> AsyncIterator[Running]:  # fmt: skip
    """The bot with the real grading sandbox behind `/submit` and `/run`."""
    async with connected(stub, grading_core, discord_scheduler, adapters) as running:
        yield running
