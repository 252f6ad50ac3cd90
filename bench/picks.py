"""The pick of `/question` at 10,000 questions (`python -m bench picks`).

One member has seen 3,000 questions (shown, opened, answered), holds 500 review cards (100 of
them due) and 300 daily-quiz answers, among 10,000 members with 100,000 quiz answers and
100,000 ledger rows between them. Measured, beside the plain random pick it replaces:

- the pick for that member, with no filter and with a topic filter, p50/p95
- the pick for a member who has seen nothing

and, over the same ledger, the rows of an admin's `/export scores` for the 10,000 members.
The same data is then measured on PostgreSQL (a throwaway local cluster, `tests.postgres`,
skipped where no server is installed), where the walk for an unseen question goes in id
order instead of SQLite's rowid order.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.store.database import open_database
from bot.store.db import Database, SqliteDatabase
from bot.store.postgres.database import open_postgres
from bot.store.postgres.db import PostgresDatabase
from bot.store.progress import ProgressStore, Solutions
from bot.store.questions import QuestionStore
from bot.store.seen import SeenStore
from bot.store.submissions import SubmissionStore
from bot.types import User
from tests.postgres import find_bindir, running_cluster

N, MEMBERS, RUNS = 10_000, 10_000, 300
TOPICS = ["gpu", "distributed", "python", "inference", "pytorch", "os", "algorithms"]
NOW = datetime(2026, 6, 1, tzinfo=UTC)
ME = User("bench", "me", "me")


async def fill(db: Database) -> None:
    """The bench's rows, in one transaction (outside one, each row would commit by itself)."""
    async with db.transaction():
        await fill_rows(db)


async def fill_rows(db: Database) -> None:
    rng = random.Random(13)
    ids = [f"q{i:05d}" for i in range(N)]
    await db.executemany(
        "INSERT INTO questions (id, title, kind, difficulty, answer, content_hash) "
        "VALUES (?, ?, 'qa', ?, 'text', '')",
        [(q, q, rng.choice(["easy", "medium", "hard"])) for q in ids],
    )
    await db.executemany("INSERT INTO question_topics VALUES (?, ?)",
                         [(q, rng.choice(TOPICS)) for q in ids])  # fmt: skip
    mine = rng.sample(ids, 3_000)
    at = [(NOW - timedelta(minutes=i)).isoformat() for i in range(len(mine))]
    await db.executemany("INSERT INTO questions_seen VALUES ('bench', 'me', ?, ?)",
                         zip(mine[:2_000], at, strict=False))  # fmt: skip
    await db.executemany("INSERT INTO answer_reveals VALUES ('bench', 'me', ?, ?)",
                         zip(mine[2_000:], at, strict=False))  # fmt: skip
    await db.executemany(
        "INSERT INTO cards VALUES ('bench', 'me', ?, '{}', ?)",
        [(q, (NOW + timedelta(days=i % 5 - 1)).isoformat()) for i, q in enumerate(mine[:500])],
    )
    await fill_others(db, rng, ids)


async def fill_others(db: Database, rng: random.Random, ids: list[str]) -> None:
    await db.executemany(
        "INSERT INTO schedules (id, platform, workspace, channel, post_time, timezone, days, "
        "answer) VALUES (?, 'bench', ?, ?, '09:00', 'UTC', 127, 'next')",
        [(s, "w" if s <= 3 else f"w{s}", f"c{s}") for s in range(1, 101)],
    )
    slots = [(s, f"2026-{1 + d // 28:02d}-{1 + d % 28:02d}") for s in range(1, 101)
             for d in range(100)]  # fmt: skip
    await db.executemany(
        "INSERT INTO daily_posts (schedule_id, slot, part, question_id, kind, cycle, due_at, "
        "state, nonce) VALUES (?, ?, 'question', ?, 'qa', 0, ?, 'sent', ?)",
        [(s, slot, rng.choice(ids), NOW.isoformat(), f"{s}{slot}") for s, slot in slots],
    )
    answers = {(*rng.choice(slots), f"m{rng.randrange(MEMBERS)}") for _ in range(100_000)}
    answers |= {(*slot, "me") for slot in rng.sample(slots, 300)}
    await db.executemany(
        "INSERT INTO quiz_answers VALUES (?, ?, 'bench', ?, 0, 1, ?) ON CONFLICT DO NOTHING",
        [(s, slot, user, NOW.isoformat()) for s, slot, user in answers],
    )
    await db.executemany(
        "INSERT INTO activity (platform, workspace, channel, user_id, user_name, kind, "
        "question_id, correct, points, at, day, dedupe) "
        "VALUES ('bench', 'w', 'c', ?, 'n', 'quiz', ?, 1, 10, ?, '2026-05-31', ?)",
        [(f"m{i % MEMBERS}" if i % 100 else "me", rng.choice(ids), NOW.isoformat(), f"d{i}")
         for i in range(100_000)],
    )  # fmt: skip


async def timed(work: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        await work()
        samples.append((time.perf_counter() - start) * 1000)
    cuts = statistics.quantiles(samples, n=100)
    return cuts[49], cuts[94]


async def measure(db: Database, solutions: Solutions, plain: QuestionStore | None) -> None:
    seen, rng = SeenStore(db), random.Random(1)
    cases: dict[str, Callable[[], Awaitable[object]]] = {
        "pick, member with history": lambda: seen.pick(ME, rng, NOW),
        "pick, same, topic:gpu": lambda: seen.pick(ME, rng, NOW, topic="gpu"),
        "pick, new member": lambda: seen.pick(User("bench", "new", "n"), rng, NOW),
    }
    if plain is not None:
        cases["plain random (before)"] = lambda: plain.pick(rng)
    for name, work in cases.items():
        p50, p95 = await timed(work)
        print(f"{name:<28} p50 {p50:6.2f} ms   p95 {p95:6.2f} ms")
    start = time.perf_counter()
    scores = await ProgressStore(db, solutions).scores("bench", "w")
    took = time.perf_counter() - start
    print(f"export scores: {len(scores):,} members' rows in {took * 1000:.0f} ms")


async def run_sqlite() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with open_database(Path(tmp) / "bench.sqlite3") as db:
            database = SqliteDatabase(db)
            await fill(database)
            print("SQLite:")
            await measure(database, SubmissionStore(database), QuestionStore(database))


async def run_postgres(dsn: str) -> None:
    async with open_postgres(dsn, max_size=4) as pool:
        db = PostgresDatabase(pool)
        await fill(db)
        await db.execute("ANALYZE")  # as autovacuum would have done long before
        print("PostgreSQL 15 (local, loopback TCP, fsync off):")
        await measure(db, SubmissionStore(db), None)


def main() -> None:
    print(f"/question picks: {N:,} questions, {MEMBERS:,} members")
    asyncio.run(run_sqlite())
    bindir = find_bindir()
    if bindir is None:
        print("PostgreSQL skipped: no server binaries (initdb, pg_ctl) installed")
        return
    with running_cluster(bindir) as cluster:
        asyncio.run(run_postgres(cluster.dsn()))
