"""Warm leaderboards with more than one process writing the ledger.

Each "process" here is its own connection (SQLite) or pool (PostgreSQL) to one database,
with its own warm boards: a member forgotten through one drops off the other's boards, and
on PostgreSQL a row that commits below ids a board already folded is still counted, once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import psycopg
import pytest

import bot.store.boards as board_store
from bot.learning.leaderboards import Leaderboards
from bot.store.boards import BoardStore, Scope
from bot.store.database import open_database
from bot.store.db import Database, SqliteDatabase
from bot.store.members import MemberData
from bot.store.postgres.database import open_postgres
from bot.store.postgres.db import PostgresDatabase
from bot.types import User

SERVER = Scope("t", "w-1")
ALICE, BOB = User("t", "alice", "Alice"), User("t", "bob", "Bob")
_INSERT = """INSERT INTO activity (platform, workspace, channel, user_id, user_name, kind,
                 question_id, correct, points, hinted, at, day, dedupe)
             VALUES ('t', 'w-1', 'c-1', ?, ?, 'quiz', 'q1', 1, ?, 0, ?, '2026-03-02', ?)"""


@asynccontextmanager
async def _process(location: Path | str) -> AsyncIterator[Database]:
    async with AsyncExitStack() as stack:
        if isinstance(location, Path):
            yield SqliteDatabase(await stack.enter_async_context(open_database(location)))
        else:
            yield PostgresDatabase(await stack.enter_async_context(open_postgres(location)))


async def _act(db: Database, who: User, points: int, n: int) -> None:
    await db.execute(_INSERT, (who.id, who.display_name, points, f"2026-03-02T09:{n:02d}:00",
                               f"act-{n}"))  # fmt: skip


def _points(rows: list[object]) -> dict[str, int]:
    return {r.user_id: r.points for r in rows}  # type: ignore[attr-defined]


async def test_a_member_forgotten_in_one_process_leaves_the_others_boards(
    backend_location: Path | str,
) -> None:
    async with _process(backend_location) as one, _process(backend_location) as two:
        await _act(one, ALICE, 10, 1)
        await _act(one, BOB, 5, 2)
        boards = Leaderboards(BoardStore(one))
        assert _points(await boards.standings(SERVER, "bob")) == {"alice": 10, "bob": 5}
        await MemberData(two).forget(ALICE)
        assert _points(await boards.standings(SERVER, "bob")) == {"bob": 5}
        await _act(two, BOB, 3, 3)  # and the board, started again, goes on folding
        assert _points(await boards.standings(SERVER, "bob")) == {"bob": 8}


async def test_a_row_committed_below_folded_ids_is_counted_once(postgres_dsn: str) -> None:
    async with _process(postgres_dsn) as db:
        boards = Leaderboards(BoardStore(db))
        await _act(db, BOB, 1, 1)
        assert _points(await boards.standings(SERVER, "bob")) == {"bob": 1}
        late = await psycopg.AsyncConnection.connect(postgres_dsn)
        async with late:
            sql = _INSERT.replace("?", "%s")
            await late.execute(sql.encode(), ("alice", "Alice", 10, "2026-03-02T09:02:00", "l"))
            await _act(db, BOB, 2, 3)  # takes the next id, and commits first
            assert _points(await boards.standings(SERVER, "bob")) == {"bob": 3}
            await late.commit()  # alice's row appears below an id the board has folded
        for _ in range(2):  # and it is folded once, however often the board is asked
            assert _points(await boards.standings(SERVER, "bob")) == {"alice": 10, "bob": 3}


async def test_without_the_late_window_that_row_would_be_lost(
    postgres_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The window is what counts the late row: with none (SQLite's), it is missed."""
    monkeypatch.setitem(board_store.LATE_ROWS, "postgres", 0)
    async with _process(postgres_dsn) as db:
        boards = Leaderboards(BoardStore(db))
        await _act(db, BOB, 1, 1)
        await boards.standings(SERVER, "bob")
        late = await psycopg.AsyncConnection.connect(postgres_dsn)
        async with late:
            sql = _INSERT.replace("?", "%s")
            await late.execute(sql.encode(), ("alice", "Alice", 10, "2026-03-02T09:02:00", "l"))
            await _act(db, BOB, 2, 3)
            await boards.standings(SERVER, "bob")
            await late.commit()
        assert _points(await boards.standings(SERVER, "bob")) == {"bob": 3}
