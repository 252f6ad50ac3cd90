"""Fixtures for the stores: a `backend` per engine, on the throwaway PostgreSQL cluster.

`backend` is a fresh migrated database behind the `Database` boundary, once on SQLite and
once on PostgreSQL, so a store's tests are written once and run on both (the PostgreSQL
run skips, saying why, where no server is installed).

PostgreSQL: the session's throwaway cluster (`tests.postgres_fixtures`, shared by every
suite), a fresh database per test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store.database import open_database
from bot.store.db import Database, SqliteDatabase
from bot.store.postgres.database import open_postgres
from bot.store.postgres.db import PostgresDatabase


@pytest.fixture(params=["sqlite", "postgres"])
def backend_location(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where `backend` lives: a SQLite file, or a fresh PostgreSQL database's DSN.

    Synchronous, so that the session's cluster starts outside any event loop."""
    if request.param == "sqlite":
        return tmp_path / "bot.sqlite3"
    return str(request.getfixturevalue("postgres_dsn"))


@pytest.fixture
async def backend(backend_location: Path | str) -> AsyncIterator[Database]:
    """A fresh database at the latest schema, on each engine in turn."""
    if isinstance(backend_location, Path):
        async with open_database(backend_location) as db:
            yield SqliteDatabase(db)
    else:
        async with open_postgres(backend_location, max_size=4) as pool:
            yield PostgresDatabase(pool)
