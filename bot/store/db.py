"""The database boundary: what a store asks of a database, whichever engine holds it.

Stores write their SQL once, with `?` placeholders and portable SQL (`ON CONFLICT ... DO
NOTHING/UPDATE`, `RETURNING`, `count(*)`, `coalesce`, booleans as 0/1 integers), and talk
to a `Database`: `SqliteDatabase` over the one aiosqlite connection (`bot.store.database`),
or `PostgresDatabase` over a psycopg pool (`bot.store.postgres.db`). Rows are indexable by
position on both; a store reads them by position only.

`transaction()` is one write transaction, committed on success and rolled back on any
exception; every statement the same task issues inside it runs in it. Concurrent
transactions take turns on SQLite (one writer) and run side by side on PostgreSQL (a
connection each). Transactions do not nest: SQLite's would wait for itself.

`engine` names the engine, for the little that cannot be written once (full-text search,
JSON aggregation, advisory locks, questions walked in SQLite's rowid order, an index named
to SQLite's planner): a store that needs it keeps one constant per engine side by side and
picks by it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Literal, Protocol

import aiosqlite

from bot.store.database import transaction

Params = Sequence[object]
Engine = Literal["sqlite", "postgres"]


class Row(Protocol):
    """A result row: its columns by position (sqlite3.Row and tuple both qualify)."""

    def __getitem__(self, index: int, /) -> Any: ...

    def __len__(self) -> int: ...


class Database(Protocol):
    @property
    def engine(self) -> Engine:
        """Which engine holds the database."""
        ...

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query (or of a statement's RETURNING)."""
        ...

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query, or None."""
        ...

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; how many rows it changed."""
        ...

    async def executemany(self, sql: str, params: Iterable[Params]) -> None:
        """Run one statement once per parameter tuple."""
        ...

    def transaction(self) -> AbstractAsyncContextManager[None]:
        """One write transaction: committed on success, rolled back on any exception."""
        ...


class SqliteDatabase:
    """The shared aiosqlite connection, as a `Database`.

    A thin wrapper: each call is the same single round trip to aiosqlite's thread as the
    module functions of `bot.store.database`, and `transaction()` is that module's, so
    stores on this wrapper and stores still on the raw connection take turns at the same
    writer lock.
    """

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection

    @property
    def engine(self) -> Engine:
        return "sqlite"

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self.connection.execute_fetchall(sql, params))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        found = await self.connection.execute_fetchall(sql, params)
        return next(iter(found), None)

    async def execute(self, sql: str, params: Params = ()) -> int:
        cursor = await self.connection.execute(sql, params)
        return cursor.rowcount

    async def executemany(self, sql: str, params: Iterable[Params]) -> None:
        await self.connection.executemany(sql, params)

    def transaction(self) -> AbstractAsyncContextManager[None]:
        return transaction(self.connection)
