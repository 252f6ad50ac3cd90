"""Benchmarks of the learning loop at 10,000 members and 100,000 cards
(`python -m bench learning`).

The database is the bot's own (migrated, the bundled bank loaded), filled with a month of
history: 10,000 members in 10 servers, 10 fsrs cards each (reviewed with fsrs itself, due
dates spread over the coming weeks), about 300,000 scored acts across 1,000 channels with
schedules that ask for the weekly summary. Then, through the core as a member would:

- a quiz answer (answer, score, card review, due date) and a rating
- `/review` (the next due card dealt) and `/leaderboard` (week, server)
- the weekly summary of 1,000 channels, built as the scheduler posts it

Each p50/p95 beside the floor of a plain lookup (`/question <id>`) on the same database, and
the summary beside the same work per channel with its own query per member (N+1).
Targets: record + next due p95 under 5 ms; `/review`, `/leaderboard` p95 under 10 ms; the
summary of 1,000 channels under 5 s.
"""

from __future__ import annotations

import random
import statistics
from datetime import UTC, datetime, timedelta

import aiosqlite
from fsrs import Card, Rating, Scheduler

MEMBERS = 10_000
SERVERS = 10
CARDS_EACH = 10
CHANNELS = 1_000
ACTS_EACH = 30
NOW = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)  # a Wednesday
ZONES = ("Asia/Shanghai", "Europe/Berlin", "America/New_York", "UTC", "Asia/Tokyo")


def member(n: int) -> tuple[str, str]:
    """(workspace, user id) of the n-th member."""
    return f"G{n % SERVERS}", f"M{n:05d}"


def channel(n: int, rng: random.Random) -> str:
    """One of the channels of member n's server."""
    per = CHANNELS // SERVERS
    return f"C{(n % SERVERS) * per + rng.randrange(per):04d}"


async def populate(db: aiosqlite.Connection, rng: random.Random) -> list[str]:
    """Fill the database; the explained question ids (for answers)."""
    ids = [
        r[0]
        async for r in await db.execute(
            "SELECT id FROM questions WHERE kind = 'qa' AND status = 'published' AND retired = 0"
        )
    ]
    await db.execute("BEGIN")
    await _schedules(db)
    await _cards(db, rng, ids)
    await _acts(db, rng, ids)
    await db.execute("COMMIT")
    await db.execute("ANALYZE")
    return ids


async def _schedules(db: aiosqlite.Connection) -> None:
    per = CHANNELS // SERVERS
    rows = [("discord", f"G{c // per}", f"C{c:04d}", ZONES[c % len(ZONES)])
            for c in range(CHANNELS)]  # fmt: skip
    await db.executemany(
        """INSERT INTO schedules (platform, workspace, channel, post_time, timezone, days,
                                  answer, summary)
           VALUES (?, ?, ?, '09:00', ?, 127, '+8h', 'weekly')""",
        rows,
    )


async def _cards(db: aiosqlite.Connection, rng: random.Random, ids: list[str]) -> None:
    fsrs = Scheduler(enable_fuzzing=False)
    rows = []
    for n in range(MEMBERS):
        _, uid = member(n)
        for qid in rng.sample(ids, CARDS_EACH):
            card, at = Card(), NOW - timedelta(days=rng.randrange(1, 30))
            for _ in range(rng.randrange(1, 4)):
                card, _log = fsrs.review_card(card, rng.choice(list(Rating)), at)
                at = max(at, card.due)
            rows.append(("discord", uid, qid, card.to_json(), card.due.isoformat()))
    await db.executemany("INSERT INTO cards VALUES (?, ?, ?, ?, ?)", rows)


async def _acts(db: aiosqlite.Connection, rng: random.Random, ids: list[str]) -> None:
    rows = []
    for n in range(MEMBERS):
        workspace, uid = member(n)
        for k in range(ACTS_EACH):
            at = NOW - timedelta(minutes=rng.randrange(30 * 24 * 60))
            right = rng.random() < 0.6
            rows.append(("discord", workspace, channel(n, rng), uid, f"member {n}", "quiz",
                         rng.choice(ids), int(right), 10 * right, 0, at.isoformat(),
                         at.date().isoformat(), f"bench:{uid}:{k}"))  # fmt: skip
    await db.executemany(
        """INSERT INTO activity (platform, workspace, channel, user_id, user_name, kind,
                                 question_id, correct, points, hinted, at, day, dedupe)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        rows,
    )


def percentiles(samples: list[float]) -> str:
    cuts = statistics.quantiles(samples, n=100)
    return f"p50 {cuts[49] * 1000:6.2f} ms   p95 {cuts[94] * 1000:6.2f} ms"
