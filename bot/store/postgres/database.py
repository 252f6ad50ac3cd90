"""Opening a PostgreSQL database: a psycopg async pool, migrated before it is handed out.

The migrations story is SQLite's (`bot.store.database`): the database records its version in
`schema_version`, every newer step is applied, and a database written by a newer studybot
is refused rather than guessed at. What differs is that many processes may open one
database at once (several bots, graders): the version is read and the steps applied under a
transaction-scoped advisory lock, so the second process waits, then finds nothing to do.
The steps pending at one open are applied in that one transaction (PostgreSQL's DDL is
transactional): a failed step leaves the database as it was.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import psycopg
from psycopg.rows import TupleRow
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from bot.errors import StoreError
from bot.store.postgres.migrations import MIGRATIONS

SCHEMA_VERSION = len(MIGRATIONS)

Connection = psycopg.AsyncConnection[TupleRow]
Pool = AsyncConnectionPool[Connection]

# pg_advisory_xact_lock's key for "migrating studybot's schema" (any constant 64-bit integer;
# this one spells "studybot" in ASCII, so it is unlikely to be another program's).
MIGRATION_LOCK = int.from_bytes(b"studybot", "big") & 0x7FFF_FFFF_FFFF_FFFF

IDLE_CHECK = 5.0  # seconds in the pool after which a connection is checked before use


class IdleCheck:
    """The pool's check of a connection on checkout, made only after it sat idle.

    Checking every checkout costs a round trip per statement (about a millisecond, the
    queue's latency budget). Not checking at all hands out connections a server restart or
    a dropped network link has cut, each failing one user's command. A connection not
    handed out for `after` seconds is checked (and replaced if dead); one handed out moments
    ago is trusted: a restart takes longer than that, and it would have failed its last user.
    Time is counted from checkouts, which the pool makes in the caller's task (a return is
    finished later, in the pool's own workers)."""

    def __init__(self, after: float = IDLE_CHECK, monotonic: Callable[[], float] = time.monotonic):
        self._after, self._monotonic = after, monotonic
        self._since: weakref.WeakKeyDictionary[Connection, float] = weakref.WeakKeyDictionary()

    async def made(self, conn: Connection) -> None:
        """The pool's `configure`: a new connection needs no check."""
        self._since[conn] = self._monotonic()

    async def check(self, conn: Connection) -> None:
        """The pool's `check`: a round trip if idle long enough; raises if it is dead."""
        now, since = self._monotonic(), self._since.get(conn)
        if since is None or now - since >= self._after:
            await AsyncConnectionPool.check_connection(conn)
        self._since[conn] = now


@asynccontextmanager
async def open_postgres(
    dsn: str, *, min_size: int = 1, max_size: int = 10, wait: float = 10.0,
    idle: IdleCheck | None = None,
) -> AsyncIterator[Pool]:  # fmt: skip
    """A pool of connections to the database at `dsn`, migrated to SCHEMA_VERSION.

    `wait` bounds, in seconds, both the first connections and each later wait for one.
    Connections are in autocommit: a lone statement is one round trip, and a transaction
    is asked for explicitly (`conn.transaction()`, `PostgresDatabase.transaction()`).
    Connections idle for a while are checked before use (`IdleCheck`)."""
    await _reachable(dsn, wait)
    idle = idle or IdleCheck()
    pool: Pool = AsyncConnectionPool(
        dsn, min_size=min_size, max_size=max_size, timeout=wait, open=False,
        name="studybot", kwargs={"autocommit": True},
        configure=idle.made, check=idle.check,
    )  # fmt: skip
    try:
        await pool.open(wait=True, timeout=wait)
    except (PoolTimeout, psycopg.Error) as exc:
        await pool.close()
        raise StoreError(f"cannot open database {_safe(dsn)}: {exc}") from exc
    try:
        async with pool.connection() as conn:
            await check_collation(conn)
            await migrate(conn)
        yield pool
    finally:
        await pool.close()


async def _reachable(dsn: str, wait: float) -> None:
    """One connection first: a server that refuses it (down, a wrong host or password) is
    one clear error at once, where the pool would retry it for `wait` seconds and log a
    warning each time."""
    try:
        probe = await psycopg.AsyncConnection.connect(dsn, connect_timeout=max(1, round(wait)))
    except psycopg.Error as exc:
        why = " ".join(str(exc).split())  # libpq's message spans lines
        raise StoreError(f"cannot connect to {_safe(dsn)}: {why}") from exc
    await probe.close()


async def check_collation(conn: Connection) -> None:
    """Refuse a database whose text does not sort bytewise: the stores compare ISO times,
    days and ids as text (as SQLite does), which a language's collation would reorder."""
    cursor = await conn.execute(COLLATION)
    row = await cursor.fetchone()
    if row is not None and (fault := collation_fault(str(row[0]), str(row[1]), row[2])):
        raise StoreError(fault)


# The database's collation, its provider, and the ICU locale when the provider is ICU (the
# column is `daticulocale` up to PostgreSQL 16, `datlocale` from 17: read through JSON, so
# the one query works on both).
COLLATION = """SELECT datcollate, datlocprovider,
                      coalesce(to_jsonb(d) ->> 'datlocale', to_jsonb(d) ->> 'daticulocale')
               FROM pg_database d WHERE datname = current_database()"""


def collation_fault(collate: str, provider: str = "c", icu: str | None = None) -> str | None:
    """Why a database with this collation cannot hold studybot's data, or None. An ICU
    database is named by its ICU locale (its libc collation is not what orders its text)."""
    bytewise = provider == "c" and (collate.upper() in {"C", "POSIX"} or collate.startswith("C."))
    if bytewise:
        return None
    shown = collate if provider == "c" else f"ICU ({icu or collate})"
    return (
        f"database collation {shown}: studybot compares times and ids as text, which needs "
        "bytewise order; create the database with "
        "CREATE DATABASE ... TEMPLATE template0 LOCALE 'C.UTF-8' LOCALE_PROVIDER libc"
    )


async def schema_version(conn: Connection) -> int:
    """The version the database is at (0 for an empty one)."""
    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    cursor = await conn.execute("SELECT max(version) FROM schema_version")
    row = await cursor.fetchone()
    return int(row[0]) if row and row[0] is not None else 0


async def migrate(conn: Connection) -> int:
    """Apply every migration newer than the database; return the resulting version."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        current = await schema_version(conn)
        if current > SCHEMA_VERSION:
            raise StoreError(
                f"database schema v{current} is newer than this studybot (v{SCHEMA_VERSION})"
            )
        for version in range(current + 1, SCHEMA_VERSION + 1):
            await conn.execute(MIGRATIONS[version - 1].encode())  # no params: simple protocol
            await conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (version,))
    return SCHEMA_VERSION


def _safe(dsn: str) -> str:
    """The DSN without its password, for error messages and logs."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "(unparsable DSN)"
    info.pop("password", None)
    return psycopg.conninfo.make_conninfo(**{k: str(v) for k, v in info.items()})
