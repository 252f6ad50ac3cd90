"""The bot's real discord.py client, connected to a local Discord (`stub.DiscordStub`).

The bot behind it is built by the composition root (`open_app`, see tests/conftest.py); the
client attaches itself to that bot's platforms as `studybot run` does.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from adapters.discord.client import StudyClient
from adapters.discord.interactions import PLATFORM
from adapters.discord.run import make_client, run_client, use_endpoints
from bot.app import App
from bot.core import Studybot
from bot.scheduler import Scheduler
from bot.settings import DiscordSettings, Secret
from bot.types import Invocation, Reply
from tests.adapters.discord.stub import TOKEN, DiscordStub
from tests.waiting import PATIENCE


@dataclass
class Running:
    """A connected bot: its client, the serving task, the app behind it and the stub."""

    client: StudyClient
    task: asyncio.Task[None]
    app: App
    stub: DiscordStub

    @property
    def scheduler(self) -> Scheduler:
        return self.app.scheduler


@pytest.fixture
def stub(discord_stub: DiscordStub) -> DiscordStub:
    """The local Discord (`discord_stub`, shared with the end-to-end tests)."""
    return discord_stub


def settings_for(stub: DiscordStub, token: str = TOKEN, **extra: object) -> DiscordSettings:
    return DiscordSettings(token=Secret(token), api_base_url=stub.api,
                           gateway_url=stub.ws_url, **extra)  # type: ignore[arg-type]  # fmt: skip


@contextlib.asynccontextmanager
async def connected(
    stub: DiscordStub,
    app: App,
    *,
    core: Studybot | None = None,
    client_options: dict[str, Any] | None = None,
    **extra: object,
) -> AsyncIterator[Running]:
    """Start the bot as `studybot run` does, wait until it is ready and attached, stop it
    afterwards. `core` replaces the app's core in front of the client (a held one)."""
    settings = settings_for(stub, **extra)
    use_endpoints(settings)
    client = make_client(core or app.core, settings, platforms=app.platforms,
                         guild_ready_timeout=0.05, **(client_options or {}))  # fmt: skip
    task = asyncio.create_task(run_client(client, settings), name="discord")
    ready = asyncio.create_task(client.wait_until_ready())
    await asyncio.wait({task, ready}, timeout=PATIENCE, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        ready.cancel()
        task.result()  # re-raise why start-up failed, rather than time out
    assert ready.done(), "the bot did not become ready"
    await stub.wait_for(lambda: PLATFORM in app.platforms or None)
    try:
        yield Running(client, task, app, stub)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


@pytest.fixture
async def bot(stub: DiscordStub, app: App) -> AsyncIterator[Running]:
    async with connected(stub, app) as running:
        yield running


@pytest.fixture
async def graded_bot(stub: DiscordStub, graded_app: App) -> AsyncIterator[Running]:
    """The bot with the real grading sandbox behind `/submit` and `/run`."""
    async with connected(stub, graded_app) as running:
        yield running


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
async def held(stub: DiscordStub, app: App) -> AsyncIterator[tuple[Running, HeldCore]]:
    core = HeldCore(app.core)
    options = {"defer_after": 0.05}
    async with connected(stub, app, core=core, client_options=options) as running:
        yield running, core
