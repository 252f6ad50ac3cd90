"""Benchmarks of scores at 10,000 members (`python -m bench scores`).

A ledger of 10,000 members in one server's 1,000 channels, 30 days of acts each (300,000
rows), then, through the shipped app (`open_app`, the core, the scheduler's summary job):

- a quick-check answer recorded and scored, p50/p95 (the act on the ledger, points, day)
- `/leaderboard` p50/p95: this week per server, per channel, all time per server, by topic
- the weekly summary of 1,000 channels (claim, read, render, send to a fake platform)
- the query plan of the board, to show it reads the `activity_board` index range
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.app import App, open_app
from bot.clock import SystemClock
from bot.learning.leaderboards import Leaderboards
from bot.learning.periods import week_before
from bot.schedule.model import AnswerTiming, Schedule, parse_days
from bot.schedule.times import parse_local_time, parse_zone
from bot.scheduler.summary import Summaries
from bot.settings import Settings
from bot.store.activity import ActKind
from bot.store.boards import BoardStore, Scope
from bot.store.schedules import ScheduleStore
from bot.store.summaries import SummaryStore
from bot.types import ChannelRef, Invocation, Locale, MessageRef, Reply, User

MEMBERS, CHANNELS, DAYS = 10_000, 1_000, 30
NOW = datetime(2026, 3, 29, 15, 0, tzinfo=UTC)  # a Sunday afternoon: a full week
CONTENT = Path(__file__).resolve().parents[1] / "content"
QUESTIONS = ("python-gil", "ring-allreduce", "gpu-memory", "fast-power")


class NullPlatform:
    """A platform that accepts every post at once."""

    def __init__(self) -> None:
        self.sent = 0

    async def send(self, channel: ChannelRef, reply: Reply, *, thread_of: MessageRef | None = None,
                   nonce: str | None = None) -> MessageRef:  # fmt: skip
        self.sent += 1
        return MessageRef(channel, str(self.sent))

    async def edit(self, message: MessageRef, reply: Reply) -> None:
        return None


async def fill(app: App, rng: random.Random) -> None:
    rows = []
    for m in range(MEMBERS):
        channel = f"c{m % CHANNELS}"
        for d in range(DAYS):
            at = NOW - timedelta(days=d, minutes=rng.randrange(600))
            right = rng.random() < 0.7
            rows.append(("bench", "guild", channel, f"m{m}", f"member {m}", "quiz",
                         rng.choice(QUESTIONS), int(right), 12 if right else 0, 0,
                         at.isoformat(), at.date().isoformat(), f"bench:{m}:{d}"))  # fmt: skip
    async with app.db.transaction():
        await app.db.executemany(
            """INSERT INTO activity (platform, workspace, channel, user_id, user_name, kind,
                   question_id, correct, points, hinted, at, day, dedupe)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            rows,
        )
    await app.db.execute("ANALYZE")


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(len(ordered) * 0.95) - 1]
    return f"p50 {statistics.median(ordered) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms"


async def timed(work: object, n: int = 200) -> list[float]:
    samples = []
    for i in range(n):
        started = time.perf_counter()
        await work(i)  # type: ignore[operator]
        samples.append(time.perf_counter() - started)
    return samples


async def run() -> None:
    rng = random.Random(13)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings.from_mapping({"STUDYBOT_DATABASE": str(Path(tmp) / "bench.sqlite3"),
                                          "STUDYBOT_CONTENT_DIR": str(CONTENT)})  # fmt: skip
        async with open_app(settings, clock=SystemClock(), grading=False) as app:
            started = time.perf_counter()
            await fill(app, rng)
            print(f"ledger: {MEMBERS * DAYS:,} acts of {MEMBERS:,} members in {CHANNELS:,} "
                  f"channels, written in {time.perf_counter() - started:.1f} s")  # fmt: skip
            await record(app, rng)
            await summaries(app)
            await boards(app, rng)
            await plan(app)


async def record(app: App, rng: random.Random) -> None:
    async def one(i: int) -> None:
        user = User("bench", f"m{rng.randrange(MEMBERS)}", "member")
        await app.scores.ledger.record(ActKind.QUIZ, user, ChannelRef("bench", "c1", "guild"),
                                       "python-gil", correct=True, points=15, at=NOW,
                                       dedupe=f"bench-record:{i}")  # fmt: skip

    print(f"an answer recorded and scored: {percentiles(await timed(one, 500))}")


async def boards(app: App, rng: random.Random) -> None:
    """Each case asks 100 times; every tenth ask, an answer comes in first (the board
    changes). `cold` asks in random channels of the thousand: each a first read."""
    cases = (("week, server", {}, 1), ("week, channel, cold", {"scope": "channel"}, CHANNELS),
             ("week, channel, warm", {"scope": "channel"}, 5),
             ("all time, server", {"period": "all"}, 1),
             ("month, topic", {"period": "month", "topic": "python"}, 1))  # fmt: skip
    for label, options, channels in cases:

        async def ask(i: int, options: dict[str, str] = options, channels: int = channels,
                      label: str = label) -> None:  # fmt: skip
            where = ChannelRef("bench", f"c{rng.randrange(channels)}", "guild")
            if i % 10 == 0:
                await app.scores.ledger.record(ActKind.QUIZ, User("bench", f"m{i}", "member"),
                                               where, "python-gil", correct=True, points=12,
                                               at=NOW, dedupe=f"bench {label}:{i}")  # fmt: skip
            who = User("bench", f"m{rng.randrange(MEMBERS)}", "member")
            reply = await app.core.handle(Invocation("leaderboard", options, who, where,
                                                     Locale.EN))  # fmt: skip
            assert reply.title and reply.title.startswith("Leaderboard"), reply

        print(f"/leaderboard {label}: {percentiles(await timed(ask, 100))}")
    await cold_server(app)


async def cold_server(app: App) -> None:
    """A server's week asked for the first time since the bot started: a new set of warm
    boards each time, so every ask groups the server's week in SQL."""
    scope = Scope("bench", "guild", None, NOW - timedelta(days=7))

    async def ask(i: int) -> None:
        await Leaderboards(BoardStore(app.db)).standings(scope, "m1")

    print(f"/leaderboard week, server, first ask after a start: "
          f"{percentiles(await timed(ask, 20))}")  # fmt: skip


async def summaries(app: App) -> None:
    store = ScheduleStore(app.db)
    schedules = []
    for c in range(CHANNELS):
        draft = Schedule(id=0, channel=ChannelRef("bench", f"c{c}", "guild"),
                         post_at=parse_local_time("09:00"), zone=parse_zone("UTC"),
                         days=parse_days("daily"), coding_days=parse_days("none"),
                         answer=AnswerTiming.parse("+8h"), weekly_summary=True)  # fmt: skip
        schedules.append(await store.save(draft))
    platform = NullPlatform()
    await app.platforms.attach("bench", platform)
    database = app.db
    poster = Summaries(SummaryStore(database), BoardStore(database), app.platforms, SystemClock())
    limit = asyncio.Semaphore(64)  # the scheduler's concurrency

    async def post(schedule: Schedule) -> bool:
        async with limit:
            return await poster.post(schedule, NOW)

    started = time.perf_counter()
    posted = await asyncio.gather(*(post(s) for s in schedules))
    took = time.perf_counter() - started
    print(f"weekly summary of {sum(posted):,} channels ({week_before(NOW, parse_zone('UTC'))[1]}"
          f"): {took:.2f} s")  # fmt: skip


async def plan(app: App) -> None:
    """The plans of a cold board's read: a week of the server by channel (the summaries)
    and a week of one channel."""
    start = (NOW - timedelta(days=7)).isoformat()
    cases = (
        ("server week by channel", "INDEXED BY activity_board", "", ()),
        ("channel week", "", " AND channel = ?", ("c1",)),
    )  # as bot/store/boards.py asks
    for label, index, extra, params in cases:
        rows = await app.db.fetch_all("EXPLAIN QUERY PLAN SELECT channel, user_id, sum(points) "
                               f"FROM activity {index} WHERE platform = ? AND workspace = ? "
                               f"AND at >= ?{extra} GROUP BY channel, user_id",
                               ("bench", "guild", start, *params))  # fmt: skip
        print(f"{label} query plan: " + "; ".join(str(r[3]) for r in rows))


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
