"""Assembling the running bot from settings: database, content, core.

`open_app` is the one place resources are entered, in order, on one AsyncExitStack, and left
in reverse order however the bot stops. Adapters are started by the CLI around it.
"""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

import aiosqlite

from bot.clock import SystemClock
from bot.commands.context import Context
from bot.content.loader import load_if_changed
from bot.core import Studybot
from bot.errors import ContentError
from bot.ports import Clock
from bot.settings import Settings
from bot.store.database import open_database
from bot.store.questions import QuestionStore

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class App:
    core: Studybot
    store: QuestionStore
    db: aiosqlite.Connection


@asynccontextmanager
async def open_app(
    settings: Settings, *, clock: Clock | None = None, rng: random.Random | None = None
) -> AsyncIterator[App]:
    async with AsyncExitStack() as stack:
        db = await stack.enter_async_context(open_database(settings.database))
        await refresh_content(db, settings)
        store = QuestionStore(db)
        context = Context(store=store, clock=clock or SystemClock(), rng=rng or random.Random())
        yield App(core=Studybot(context), store=store, db=db)


async def refresh_content(db: aiosqlite.Connection, settings: Settings) -> None:
    """Load content that changed since the last load; a broken bank keeps the last good one."""
    try:
        report = await load_if_changed(db, settings.content_dir)
    except ContentError as exc:
        log.error("content not loaded, serving the last good bank:\n%s", exc)
        return
    if report is not None:
        log.info("%s", report.summary())
