"""The PostgreSQL database: versioned migrations, nothing applied twice, a newer schema
refused; pooled connections cut while idle (a server restart) replaced before use."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from bot.errors import StoreError
from bot.store.postgres.database import (
    SCHEMA_VERSION,
    IdleCheck,
    collation_fault,
    open_postgres,
    schema_version,
)
from bot.store.postgres.db import PostgresDatabase
from tests.fakes import Ticks


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


async def test_an_unreachable_server_is_a_store_error_without_the_password(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """One clear error, on one line, without the pool's retries logging a warning each (an
    unreachable server used to cost `wait` seconds of warnings, then a vaguer error)."""
    dsn = "postgresql://studybot:s3cret@127.0.0.1:1/studybot?connect_timeout=1"
    with pytest.raises(StoreError, match=r"cannot connect to .*Connection refused") as raised:
        async with open_postgres(dsn, wait=10.0):
            pass
    assert "s3cret" not in str(raised.value) and "\n" not in str(raised.value)
    assert not [r for r in caplog.records if r.name.startswith("psycopg.pool")]


async def test_a_database_that_sorts_text_by_language_is_refused_untouched(
    icu_english_dsn: str,
) -> None:
    """An ICU English collation orders text by language rules, not bytes: a database
    created with one is refused before any migration."""
    with pytest.raises(StoreError, match=r"collation ICU .*LOCALE 'C\.UTF-8'"):
        async with open_postgres(icu_english_dsn):
            pass
    with psycopg.connect(icu_english_dsn) as conn:
        assert conn.execute("SELECT to_regclass('schema_version')").fetchone() == (None,)


@pytest.mark.parametrize(("collate", "provider", "refused"), [
    ("C", "c", False), ("POSIX", "c", False), ("C.UTF-8", "c", False), ("C.utf8", "c", False),
    ("en_US.UTF-8", "c", True), ("zh_CN.UTF-8", "c", True), ("C.UTF-8", "i", True),
])  # fmt: skip
def test_only_bytewise_collations_are_accepted(collate: str, provider: str, refused: bool) -> None:
    assert (collation_fault(collate, provider) is not None) == refused


def _cut(dsn: str, pid: object) -> None:
    """End one server process (waiting until it has ended), as a restart would end all."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,)).fetchone()
        assert row == (True,)


@pytest.mark.parametrize(("idle_for", "fails_once"), [(5, False), (4, True)])
async def test_a_connection_cut_while_idle_is_checked_before_use(
    postgres_dsn: str, idle_for: float, fails_once: bool
) -> None:
    """Idle 5 s in the pool: checked before use, found dead, replaced; no statement fails.
    The other side of the trade: one handed out 4 s ago is not checked (no round trip), so
    its next statement fails, and the one after gets a new connection."""
    ticks = Ticks()
    idle = IdleCheck(after=5, monotonic=ticks)
    async with open_postgres(postgres_dsn, min_size=1, max_size=1, idle=idle) as pool:
        db = PostgresDatabase(pool)
        first = await db.fetch_one("SELECT pg_backend_pid()")
        assert first is not None
        _cut(postgres_dsn, first[0])
        ticks.now += idle_for
        if fails_once:
            with pytest.raises(psycopg.OperationalError):
                await db.fetch_one("SELECT 1")
        again = await db.fetch_one("SELECT pg_backend_pid()")
        assert again is not None and again[0] != first[0]
