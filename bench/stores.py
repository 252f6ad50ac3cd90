"""The store boundary's cost (`python -m bench stores`): `ActivityStore.record` and
`QuizStore.record`, each a single-statement write on the scheduler's and the buttons' paths.

On SQLite, in one run and interleaved in blocks (so the disk and the machine's mood are
shared), the code as it was before the `Database` boundary (`fetch_all` on the raw aiosqlite
connection, copied here) against the stores over `SqliteDatabase`; then the same stores over
`PostgresDatabase` on a throwaway local cluster (`tests.postgres`, skipped where no server
is installed). Also the cost of spelling `?` as `%s`: the first rewrite of a statement and
a cached one. Figures are milliseconds per call, p50 and p95.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime
from pathlib import Path

import aiosqlite

from bot.store.activity import Act, ActivityStore, ActKind
from bot.store.database import fetch_all, open_database
from bot.store.db import Database, SqliteDatabase
from bot.store.postgres.database import open_postgres
from bot.store.postgres.db import PostgresDatabase, to_pyformat
from bot.store.quizzes import Answer, QuizStore
from bot.types import ChannelRef, User
from tests.postgres import find_bindir, running_cluster

SAMPLES, BLOCK = 4_000, 200
WHERE = ChannelRef("bench", "c1", "guild")
AT = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)

Step = Callable[[int], Awaitable[object]]


def _act(i: int, tag: str) -> Act:
    user = User("bench", f"m{i % 500}", "Member")
    return Act(ActKind.QUIZ, user, WHERE, f"q{i % 97}", i % 3 != 0, 3, AT, date(2026, 3, 1),
               f"quiz:{tag}:{i}")  # fmt: skip


async def _old_activity_record(db: aiosqlite.Connection, act: Act) -> bool:
    """`ActivityStore.record` as it was before the Database boundary."""
    inserted = await fetch_all(
        db,
        """INSERT INTO activity (platform, workspace, channel, user_id, user_name, kind,
                                 question_id, correct, points, hinted, at, day, dedupe)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (dedupe) DO NOTHING RETURNING 1""",
        (act.user.platform, act.channel.workspace or "", act.channel.channel, act.user.id,
         act.user.display_name, act.kind.value, act.question_id, int(act.correct),
         act.points, int(act.hinted), act.at.isoformat(), act.day.isoformat(), act.dedupe),
    )  # fmt: skip
    return bool(inserted)


async def _old_quiz_record(db: aiosqlite.Connection, schedule_id: int, slot: str, user: User,
                           answer: Answer, at: datetime) -> Answer | None:  # fmt: skip
    """`QuizStore.record` as it was before the Database boundary (its first answers)."""
    inserted = await fetch_all(
        db,
        """INSERT INTO quiz_answers (schedule_id, slot, platform, user_id, choice, correct,
                                     answered_at)
           VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1""",
        (schedule_id, slot, user.platform, user.id, answer.choice, int(answer.correct),
         at.isoformat()),
    )  # fmt: skip
    return None if inserted else answer


def _steps(database: Database, tag: str) -> tuple[Step, Step]:
    activity, quizzes = ActivityStore(database), QuizStore(database)

    async def act(i: int) -> object:
        return await activity.record(_act(i, tag))

    async def quiz(i: int) -> object:
        user = User("bench", f"m{i}", "Member")
        return await quizzes.record(1, f"slot-{tag}", user, Answer(i % 4, True), AT)

    return act, quiz


def _old_steps(db: aiosqlite.Connection) -> tuple[Step, Step]:
    async def act(i: int) -> object:
        return await _old_activity_record(db, _act(i, "old"))

    async def quiz(i: int) -> object:
        user = User("bench", f"m{i}", "Member")
        return await _old_quiz_record(db, 1, "slot-old", user, Answer(i % 4, True), AT)

    return act, quiz


async def _time(step: Step, indices: range, into: list[float]) -> None:
    for i in indices:
        start = time.perf_counter()
        await step(i)
        into.append((time.perf_counter() - start) * 1000)


async def _interleaved(paths: dict[str, Step]) -> dict[str, list[float]]:
    spent: dict[str, list[float]] = {name: [] for name in paths}
    for first in range(0, SAMPLES, BLOCK):
        for name, step in paths.items():
            await _time(step, range(first, first + BLOCK), spent[name])
    return spent


def _report(label: str, spent: list[float]) -> None:
    cuts = statistics.quantiles(spent, n=100)
    print(f"  {label:<44} p50 {cuts[49]:.3f} ms   p95 {cuts[94]:.3f} ms   (n={len(spent)})")


async def _sqlite() -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with open_database(Path(folder) / "bench.sqlite3") as db:
            old_act, old_quiz = _old_steps(db)
            new_act, new_quiz = _steps(SqliteDatabase(db), "new")
            print("SQLite (WAL, one aiosqlite connection), old path vs Database boundary:")
            for name, old, new in (("ActivityStore", old_act, new_act),
                                   ("QuizStore", old_quiz, new_quiz)):  # fmt: skip
                spent = await _interleaved({f"{name}.record, before": old,
                                            f"{name}.record, SqliteDatabase": new})  # fmt: skip
                for label, values in spent.items():
                    _report(label, values)


async def _postgres(dsn: str) -> None:
    async with open_postgres(dsn, max_size=4) as pool:
        act, quiz = _steps(PostgresDatabase(pool), "pg")
        print("PostgreSQL 15 (local, loopback TCP, fsync off), PostgresDatabase:")
        for label, step in (("ActivityStore.record", act), ("QuizStore.record", quiz)):
            spent: list[float] = []
            await _time(step, range(SAMPLES), spent)
            _report(label, spent)


def _rewrite_cost() -> None:
    sql = "INSERT INTO t (a, b, c) VALUES (?, ?, ?) ON CONFLICT (a) DO NOTHING RETURNING '%'"
    rounds = 20_000
    start = time.perf_counter()
    for i in range(rounds):
        to_pyformat.__wrapped__(sql + str(i % 7))
    fresh = (time.perf_counter() - start) / rounds * 1e6
    start = time.perf_counter()
    for _ in range(rounds):
        to_pyformat(sql)
    cached = (time.perf_counter() - start) / rounds * 1e6
    print(f"Placeholder rewrite: first time {fresh:.1f} µs, cached {cached:.2f} µs")


def main() -> None:
    asyncio.run(_sqlite())
    bindir = find_bindir()
    if bindir is None:
        print("PostgreSQL skipped: no server binaries (initdb, pg_ctl) installed")
    else:
        with running_cluster(bindir) as cluster:
            asyncio.run(_postgres(cluster.dsn()))
    _rewrite_cost()


if __name__ == "__main__":
    main()
