"""`studybot db copy`: a SQLite deployment's whole history, moved into PostgreSQL.

The source is read, never written: it is opened read-only and read inside one transaction,
so a bot still running on it keeps writing (WAL) while the copy sees one consistent
snapshot. Rows written after that snapshot are not copied: stop the bot for the final copy.

The destination is migrated to this studybot's schema first, then filled in one
transaction: every table of the source (in foreign-key order, so parents come first), by
`COPY ... FROM STDIN`, column by column by name. The search index is not a plain table on
SQLite (an FTS5 virtual table keyed by rowid): its pre-tokenised title and body are copied
into PostgreSQL's `question_search`, keyed by question id, whose tsvectors PostgreSQL
computes. Identity columns then continue after the largest copied id. Before the commit,
each table's rows are counted on both sides; any difference rolls everything back.

The copy refuses a source at another schema version than this studybot's (start this
studybot once on it: it migrates on open), and a destination that holds any row already
(beyond the few the migrations write, which the source's replace): a copy merges nothing.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import aiosqlite
import psycopg

from bot.errors import StoreError
from bot.store.database import SCHEMA_VERSION
from bot.store.postgres.database import Connection, open_postgres

BATCH = 5000  # source rows read per round trip
SEARCH = "question_search"
# Kept per engine: each database records its own version, and PostgreSQL builds its own index.
NOT_COPIED = frozenset({"schema_version", "sqlite_sequence"})
# Tables whose rows the migrations themselves write (a counter's one row): the source's
# replace them. A test keeps this the set of tables a fresh database has rows in.
SEEDED = frozenset({"schedule_revision"})


@dataclass(frozen=True, slots=True)
class Copied:
    """Rows per table, counted in the source's snapshot and in the destination."""

    tables: tuple[tuple[str, int], ...]

    @property
    def rows(self) -> int:
        return sum(n for _, n in self.tables)


Progress = Callable[[str, int], None]


async def copy_database(source: Path, dsn: str, progress: Progress | None = None) -> Copied:
    """Copy the SQLite database at `source` into the PostgreSQL database at `dsn`."""
    found = await asyncio.to_thread(_located, source)
    async with (
        _read_only(found) as src,
        open_postgres(dsn, max_size=1) as pool,
        pool.connection() as dst,
        dst.transaction(),
    ):
        await src.execute("BEGIN")  # one snapshot for every read below
        try:
            return await _copy(src, dst, progress or (lambda table, rows: None))
        finally:
            await src.execute("ROLLBACK")


def _located(path: Path) -> str:
    """The read-only URI of the SQLite file at `path`."""
    if not path.is_file():
        raise StoreError(f"db copy: no SQLite database at {path}")
    return f"{path.resolve().as_uri()}?mode=ro"


async def _copy(src: aiosqlite.Connection, dst: Connection, progress: Progress) -> Copied:
    await _check_version(src)
    tables = await _tables(src)
    await _check_empty(dst, [t for t in [*tables, SEARCH] if t not in SEEDED])
    counts = []
    for table in tables:
        columns = await _columns(src, table)
        await _check_columns(dst, table, columns)
        if table in SEEDED:
            await dst.execute(f"DELETE FROM {_quoted(table)}".encode())
        counts.append((table, await _copy_table(src, dst, table, columns)))
        progress(table, counts[-1][1])
    counts.append((SEARCH, await _copy_search(src, dst)))
    progress(SEARCH, counts[-1][1])
    await _continue_identities(dst)
    await _check_counts(dst, counts)
    return Copied(tuple(counts))


@asynccontextmanager
async def _read_only(uri: str) -> AsyncIterator[aiosqlite.Connection]:
    try:
        db = await aiosqlite.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"db copy: cannot open {uri}: {exc}") from exc
    try:
        await db.execute("PRAGMA busy_timeout = 5000")
        yield db
    finally:
        await db.close()


async def _check_version(src: aiosqlite.Connection) -> None:
    try:
        rows = await src.execute_fetchall("SELECT max(version) FROM schema_version")
    except sqlite3.Error as exc:
        raise StoreError(f"db copy: the source is not a studybot database ({exc})") from exc
    version = next(iter(rows))[0] or 0
    if version != SCHEMA_VERSION:
        raise StoreError(
            f"db copy: the source is at schema v{version}, this studybot at v{SCHEMA_VERSION}; "
            "start this studybot once on the source (it migrates on open), then copy"
        )


async def _tables(src: aiosqlite.Connection) -> list[str]:
    """The source's tables, parents before children; virtual tables and their shadow
    tables left out (the search index is copied on its own)."""
    rows = await src.execute_fetchall("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
    virtual = [name for name, sql in rows if sql.upper().startswith("CREATE VIRTUAL TABLE")]
    names = [
        name for name, _ in rows
        if name not in NOT_COPIED and not name.startswith("sqlite_")
        and not any(name == v or name.startswith(f"{v}_") for v in virtual)
    ]  # fmt: skip
    graph: dict[str, set[str]] = {}
    for name in names:
        parents = await src.execute_fetchall(
            'SELECT DISTINCT "table" FROM pragma_foreign_key_list(?)', (name,)
        )
        graph[name] = {p[0] for p in parents if p[0] != name and p[0] in names}
    try:
        return list(TopologicalSorter(graph).static_order())
    except CycleError as exc:
        raise StoreError(f"db copy: foreign keys form a cycle: {exc.args[1]}") from exc


async def _columns(src: aiosqlite.Connection, table: str) -> list[str]:
    rows = await src.execute_fetchall("SELECT name FROM pragma_table_info(?) ORDER BY cid",
                                      (table,))  # fmt: skip
    return [row[0] for row in rows]


async def _check_empty(dst: Connection, tables: list[str]) -> None:
    for table in tables:
        if await _count(dst, table, "LIMIT 1"):
            raise StoreError(f"db copy: the destination already holds rows (table {table}); "
                             "copy into a new, empty database")  # fmt: skip


async def _check_columns(dst: Connection, table: str, columns: list[str]) -> None:
    cursor = await dst.execute(
        "SELECT column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = %s", (table,)
    )  # fmt: skip
    missing = set(columns) - {row[0] for row in await cursor.fetchall()}
    if missing:
        raise StoreError(f"db copy: the destination's {table} lacks " + ", ".join(sorted(missing)))


async def _copy_table(src: aiosqlite.Connection, dst: Connection, table: str,
                      columns: list[str]) -> int:  # fmt: skip
    names = ", ".join(_quoted(c) for c in columns)
    select = f"SELECT {names} FROM {_quoted(table)}"
    return await _stream(src, dst, select, f"COPY {_quoted(table)} ({names}) FROM STDIN")


async def _copy_search(src: aiosqlite.Connection, dst: Connection) -> int:
    select = f"""SELECT q.id, s.title, s.body FROM {SEARCH} AS s
                 JOIN questions AS q ON q.rowid = s.rowid"""
    return await _stream(src, dst, select, f"COPY {SEARCH} (question_id, title, body) FROM STDIN")


async def _stream(src: aiosqlite.Connection, dst: Connection, select: str, copy_sql: str) -> int:
    copied = 0
    async with (
        src.execute(select) as rows,
        dst.cursor() as cursor,
        cursor.copy(copy_sql.encode()) as copy,
    ):
        while batch := list(await rows.fetchmany(BATCH)):
            for row in batch:
                await copy.write_row(tuple(row))
            copied += len(batch)
    return copied


async def _continue_identities(dst: Connection) -> None:
    """New rows get ids after the copied ones (the identities were bypassed by the copy)."""
    cursor = await dst.execute(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND is_identity = 'YES'"
    )
    for table, column in await cursor.fetchall():
        largest = f"coalesce(max({_quoted(column)}), 0) + 1"
        sql = (
            f"SELECT setval(pg_get_serial_sequence(%s, %s), {largest}, false) FROM {_quoted(table)}"
        )
        await dst.execute(sql.encode(), (table, column))


async def _check_counts(dst: Connection, counts: list[tuple[str, int]]) -> None:
    for table, expected in counts:
        found = await _count(dst, table)
        if found != expected:
            raise StoreError(f"db copy: {table} has {found} rows in the destination, "
                             f"{expected} in the source; nothing was copied")  # fmt: skip


async def _count(dst: Connection, table: str, limit: str = "") -> int:
    sql = f"SELECT count(*) FROM (SELECT 1 FROM {_quoted(table)} {limit}) AS t"
    try:
        row = await (await dst.execute(sql.encode())).fetchone()
    except psycopg.errors.UndefinedTable as exc:
        raise StoreError(f"db copy: the destination has no table {table}") from exc
    return int(row[0]) if row else 0


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
