"""The PostgreSQL database: versioned migrations, nothing applied twice, a newer schema refused."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from bot.errors import StoreError
from bot.store.postgres.database import SCHEMA_VERSION, open_postgres, schema_version


def _versions(dsn: str) -> list[int]:
    with psycopg.connect(dsn) as conn:
        return [row[0] for row in conn.execute("SELECT version FROM schema_version ORDER BY 1")]


async def test_an_empty_database_is_migrated_to_the_latest_version(
    empty_postgres_dsn: str,
) -> None:
    async with open_postgres(empty_postgres_dsn) as pool, pool.connection() as conn:
        assert await schema_version(conn) == SCHEMA_VERSION
        cursor = await conn.execute("SELECT to_regclass('questions') IS NOT NULL")
        assert await cursor.fetchone() == (True,)
    assert _versions(empty_postgres_dsn) == list(range(1, SCHEMA_VERSION + 1))


async def test_reopening_applies_nothing_twice(empty_postgres_dsn: str) -> None:
    async with open_postgres(empty_postgres_dsn):
        pass
    async with open_postgres(empty_postgres_dsn):
        pass
    assert _versions(empty_postgres_dsn) == list(range(1, SCHEMA_VERSION + 1))


async def test_processes_opening_at_once_migrate_once(empty_postgres_dsn: str) -> None:
    async def open_once() -> None:
        async with open_postgres(empty_postgres_dsn, max_size=1):
            pass

    await asyncio.gather(*(open_once() for _ in range(4)))
    assert _versions(empty_postgres_dsn) == list(range(1, SCHEMA_VERSION + 1))


async def test_a_database_from_a_newer_studybot_is_refused(postgres_dsn: str) -> None:
    with psycopg.connect(postgres_dsn) as raw:
        raw.execute("INSERT INTO schema_version (version) VALUES (%s)", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="newer than this studybot"):
        async with open_postgres(postgres_dsn):
            pass
    assert _versions(postgres_dsn)[-1] == SCHEMA_VERSION + 1  # refused, not rewritten


async def test_an_unreachable_server_is_a_store_error_without_the_password() -> None:
    dsn = "postgresql://studybot:s3cret@127.0.0.1:1/studybot?connect_timeout=1"
    with pytest.raises(StoreError, match="cannot open database") as raised:
        async with open_postgres(dsn, wait=1.0):
            pass
    assert "s3cret" not in str(raised.value)
