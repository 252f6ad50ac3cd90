"""/readyz's reasons, from bot/health.py, over the bot as `open_app` builds it: a database
that stops answering, a platform that leaves, a sandbox still starting."""

from __future__ import annotations

from pathlib import Path

from bot.app import open_app
from bot.health import bot_unready, database_down
from bot.settings import Settings
from bot.store.database import open_database
from bot.store.db import SqliteDatabase
from tests.fakes import FakeAdapter, FakeClock


async def test_a_closed_database_is_unreachable(tmp_path: Path) -> None:
    async with open_database(tmp_path / "gone.sqlite3") as connection:
        db = SqliteDatabase(connection)
        assert await database_down(db) is None
    reason = await database_down(db)
    assert reason is not None and reason.startswith("database unreachable: ")


async def test_the_bot_is_ready_with_its_platforms_and_its_sandbox(
    settings: Settings, clock: FakeClock
) -> None:
    async with open_app(settings, clock=clock) as app:
        assert app.grading is not None
        # Platforms are checked before the sandbox, which may or may not be up already.
        assert await bot_unready(app, 1) == "platforms connected: 0 of 1"
        await app.platforms.attach("test", FakeAdapter())
        first = await bot_unready(app, 1)
        assert first in {None, "grading sandbox starting"}
        await app.grading.started()
        assert await bot_unready(app, 1) is None
        assert await bot_unready(app, 2) == "platforms connected: 1 of 2"
        app.platforms.detach("test")
        assert await bot_unready(app, 1) == "platforms connected: 0 of 1"
