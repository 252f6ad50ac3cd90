"""Opening the SQLite database: WAL, foreign keys, and migrations, in one context manager.

Transactions are explicit (`isolation_level=None` plus `transaction()`), so every
multi-statement change is one `BEGIN IMMEDIATE ... COMMIT` and a failure rolls all of it back.
"""

from __future__ import annotations

import asyncio
import sqlite3
import weakref
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from bot.errors import StoreError
from bot.store.migrations import MIGRATIONS

SCHEMA_VERSION = len(MIGRATIONS)


@asynccontextmanager
async def open_database(path: Path) -> AsyncIterator[aiosqlite.Connection]:
    """Open (creating if needed) and migrate the database at `path`."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(f"cannot open database {path}: {exc}") from exc
    try:
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode = WAL")
        await db.execute("PRAGMA synchronous = NORMAL")
        await db.execute("PRAGMA foreign_keys = ON")
        await db.execute("PRAGMA busy_timeout = 5000")
        await migrate(db)
        yield db
    finally:
        await db.close()


# One connection is shared by every coroutine, and SQLite has one transaction per connection:
# writers take turns here instead of failing with "cannot start a transaction within a
# transaction" when two commands write at once.
_WRITERS: weakref.WeakKeyDictionary[aiosqlite.Connection, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


@asynccontextmanager
async def transaction(db: aiosqlite.Connection) -> AsyncIterator[None]:
    """One write transaction: committed on success, rolled back on any exception."""
    lock = _WRITERS.setdefault(db, asyncio.Lock())
    async with lock:
        await db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")


async def fetch_all(
    db: aiosqlite.Connection, sql: str, params: Sequence[object] = ()
) -> list[sqlite3.Row]:
    """Every row of a query in one round trip to aiosqlite's thread.

    `async with db.execute(...) as cursor` costs three (execute, fetch, close); on the
    scheduler's hot path, with a thousand channels due in one minute, that difference is
    most of the lateness.
    """
    return list(await db.execute_fetchall(sql, params))


async def fetch_one(
    db: aiosqlite.Connection, sql: str, params: Sequence[object] = ()
) -> sqlite3.Row | None:
    found = await fetch_all(db, sql, params)
    return found[0] if found else None


async def schema_version(db: aiosqlite.Connection) -> int:
    await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    async with db.execute("SELECT max(version) FROM schema_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row and row[0] is not None else 0


async def migrate(db: aiosqlite.Connection) -> int:
    """Apply every migration newer than the database; return the resulting version."""
    current = await schema_version(db)
    if current > SCHEMA_VERSION:
        raise StoreError(
            f"database schema v{current} is newer than this studybot (v{SCHEMA_VERSION})"
        )
    for version in range(current + 1, SCHEMA_VERSION + 1):
        async with transaction(db):
            for statement in _statements(MIGRATIONS[version - 1]):
                await db.execute(statement)
            await db.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
    return SCHEMA_VERSION


def _statements(script: str) -> list[str]:
    # executescript() would COMMIT implicitly; split so each step stays one transaction.
    statements, buffer = [], ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    return [s for s in statements if s]
