"""These tests run on both engines: each test that uses the bot's database (`database`,
`settings`, `app`) runs once on SQLite and once on a fresh PostgreSQL database."""

import pytest


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)
