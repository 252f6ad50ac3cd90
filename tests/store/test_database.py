"""The database file: WAL, versioned migrations, refusal of a newer schema."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.errors import StoreError
from bot.store.database import (
    SCHEMA_VERSION,
    fetch_all,
    open_database,
    schema_version,
    transaction,
)


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


async def test_concurrent_writers_take_turns_on_one_connection(tmp_path: Path) -> None:
    async with open_database(tmp_path / "db.sqlite3") as db:
        await db.execute("CREATE TABLE t (n INTEGER)")

        async def write(n: int) -> None:
            async with transaction(db):
                await db.execute("INSERT INTO t VALUES (?)", (n,))
                await asyncio.sleep(0)  # let the others try to start theirs meanwhile
                await db.execute("INSERT INTO t VALUES (?)", (-n,))

        await asyncio.gather(*(write(n) for n in range(1, 21)))
        rows = await fetch_all(db, "SELECT SUM(n), COUNT(*) FROM t")
        assert tuple(rows[0]) == (0, 40)
