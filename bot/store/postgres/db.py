"""The store boundary (`bot.store.db.Database`) over a psycopg pool.

A call outside a transaction borrows a pool connection for that one statement (the pool's
connections are in autocommit, so a statement is one round trip and commits by itself); a
`transaction()` borrows one connection for its whole body and every statement the same
task issues inside it runs there (a context variable carries the connection, so the
stores need not). A transaction inside a transaction is a savepoint.

Stores write `?` placeholders (SQLite's); `to_pyformat` spells them `%s` for psycopg,
leaving quoted strings, quoted names and comments alone, and doubles every literal `%`
(psycopg reads `%` anywhere as the start of a placeholder). The rewrite is cached per
statement text, and a store's statements are a handful of constants.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from functools import lru_cache

from bot.store.db import Engine, Params, Row
from bot.store.postgres.database import Connection, Pool

# A quoted string, a quoted name, a comment, a placeholder or a percent sign. Dollar-quoted
# strings are not recognised: no store writes them.
_TOKEN = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|/\*.*?\*/|\?|%""", re.S)


@lru_cache(maxsize=1024)
def to_pyformat(sql: str) -> str:
    """`sql` with each `?` outside quotes and comments as `%s`, and each `%` as `%%`."""
    return _TOKEN.sub(_rewrite, sql)


def _rewrite(match: re.Match[str]) -> str:
    token = match.group()
    if token == "?":
        return "%s"
    return token.replace("%", "%%")


class PostgresDatabase:
    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self._current: ContextVar[Connection | None] = ContextVar(
            f"studybot-pg-transaction-{id(self)}", default=None
        )

    @property
    def engine(self) -> Engine:
        return "postgres"

    async def fetch_all(
        self, sql: str, params: Params = (), *, prepare: bool | None = None
    ) -> list[Row]:
        """`prepare=False` keeps psycopg from preparing the statement (it does once a text has
        run five times on a connection), so PostgreSQL plans it for its parameters each time
        rather than settling on one generic plan (`bot.store.postgres.search` says when that
        matters)."""
        async with self._connection() as conn:
            cursor = await conn.execute(to_pyformat(sql), tuple(params), prepare=prepare)
            return list(await cursor.fetchall()) if cursor.description else []

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        found = await self.fetch_all(sql, params)
        return found[0] if found else None

    async def execute(self, sql: str, params: Params = ()) -> int:
        async with self._connection() as conn:
            cursor = await conn.execute(to_pyformat(sql), tuple(params))
            return cursor.rowcount

    async def executemany(self, sql: str, params: Iterable[Params]) -> None:
        async with self._connection() as conn, conn.cursor() as cursor:
            await cursor.executemany(to_pyformat(sql), [tuple(p) for p in params])

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        current = self._current.get()
        if current is not None:  # nested: a savepoint on the same connection
            async with current.transaction():
                yield
            return
        async with self.pool.connection() as conn, conn.transaction():
            token = self._current.set(conn)
            try:
                yield
            finally:
                self._current.reset(token)

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        current = self._current.get()
        if current is not None:
            yield current
            return
        async with self.pool.connection() as conn:
            yield conn
