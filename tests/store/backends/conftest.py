"""The stores on both engines: every test here runs once on SQLite and once on a fresh
PostgreSQL database (skipped, saying why, where no server is installed).

`backend` is the bot's `database` (tests/conftest.py) under the name these tests use, and
`backend_location` where it lives (a SQLite file, or a DSN), for tests that open the same
database a second time, as a second process would.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store.db import Database


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def backend_location(database_location: Path | str) -> Path | str:
    return database_location


@pytest.fixture
def backend(database: Database) -> Database:
    return database
