"""The database file: WAL, versioned migrations, refusal of a newer schema."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.errors import StoreError
from bot.store.database import SCHEMA_VERSION, open_database, schema_version


async def test_a_new_database_is_migrated_and_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "bot.sqlite3"
    async with open_database(path) as db:
        assert await schema_version(db) == SCHEMA_VERSION
        async with db.execute("PRAGMA journal_mode") as cursor:
            assert (await cursor.fetchone())[0] == "wal"  # type: ignore[index]
    assert path.exists()


async def test_reopening_applies_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    async with open_database(path):
        pass
    async with open_database(path) as db, db.execute("SELECT version FROM schema_version") as c:
        assert [row[0] async for row in c] == list(range(1, SCHEMA_VERSION + 1))


async def test_a_database_from_a_newer_studybot_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    async with open_database(path):
        pass
    with sqlite3.connect(path) as raw:
        raw.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="newer than this studybot"):
        async with open_database(path):
            pass


async def test_an_unopenable_path_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreError, match="cannot open database"):
        async with open_database(blocker / "bot.sqlite3"):
            pass
