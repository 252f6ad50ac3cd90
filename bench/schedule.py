"""Benchmarks of the daily schedule at 10,000 channels (`python -m bench schedule`).

Each figure beside the obvious alternative, in the same run:

- start-up: load 10,000 schedules across every IANA zone and plan every next post
  vs  reading each schedule and its history with its own queries (N+1)
- memory held by the planned loop (tracemalloc)
- idle: CPU used by the real loop while nothing is due, and wake-ups over a simulated day
  vs  the CPU a poller that scans every schedule every minute would spend in a day
- lateness: 1,000 channels due in the same minute, real clock, a fake platform that takes
  20 ms per post; our bounded concurrency  vs  posting one after another
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo, available_timezones

import aiosqlite

from bot.clock import SystemClock
from bot.content.loader import load_bank
from bot.platforms import Platforms
from bot.scheduler import Scheduler, SchedulerConfig
from bot.store.database import open_database
from bot.store.db import SqliteDatabase
from bot.store.questions import QuestionStore
from bot.store.schedules import ScheduleStore
from bot.types import ChannelRef, MessageRef, Reply, User

N = 10_000
SAME_MINUTE = 1_000
PLATFORM_LATENCY = 0.020
BANK = Path(__file__).resolve().parents[1] / "content"
ZONES = sorted(z for z in available_timezones() if "/" in z and not z.startswith("Etc/"))


class NullPlatform:
    """Accepts every post; optionally takes `latency` seconds; records when posts arrive."""

    def __init__(self, latency: float = 0.0, expected: int = 0) -> None:
        self.latency, self.arrivals, self._n = latency, list[float](), 0
        self.expected, self.all_arrived = expected, asyncio.Event()

    async def send(
        self,
        channel: ChannelRef,
        reply: Reply,
        *,
        thread_of: MessageRef | None = None,
        nonce: str | None = None,
    ) -> MessageRef:
        if self.latency:
            await asyncio.sleep(self.latency)
        self.arrivals.append(time.time())
        if len(self.arrivals) == self.expected:
            self.all_arrived.set()
        self._n += 1
        return MessageRef(channel, str(self._n))

    async def edit(self, message: MessageRef, reply: Reply) -> None:
        return None

    async def send_direct(self, user: User, reply: Reply) -> None:
        return None


class JumpClock:
    """Simulated time: sleeping jumps straight to the deadline, so a day runs in seconds."""

    def __init__(self, start: datetime) -> None:
        self.current, self.wakeups = start, 0

    def now(self) -> datetime:
        return self.current

    async def sleep_until(self, when: datetime) -> None:
        self.current, self.wakeups = max(self.current, when), self.wakeups + 1


@asynccontextmanager
async def bank_db(path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with open_database(path) as db:
        await load_bank(SqliteDatabase(db), BANK)
        yield db


async def insert_schedules(db: aiosqlite.Connection, rows: list[tuple[object, ...]]) -> None:
    await db.executemany(
        """INSERT INTO schedules (platform, workspace, channel, post_time, timezone, days,
               coding_days, topic, answer) VALUES (?, 'bench', ?, ?, ?, 127, 0, NULL, '+4h')""",
        rows,
    )


def spread(platform: str, n: int) -> list[tuple[object, ...]]:
    rng = random.Random(7)
    return [(platform, f"c{i}", f"{rng.randrange(24):02d}:{rng.randrange(60):02d}",
             ZONES[i % len(ZONES)]) for i in range(n)]  # fmt: skip


async def bench_start(work: Path) -> None:
    async with bank_db(work / "start.sqlite3") as db:
        await insert_schedules(db, spread("bench", N))
        clock = JumpClock(datetime(2026, 3, 2, tzinfo=UTC))
        ledger, questions = ScheduleStore(SqliteDatabase(db)), QuestionStore(SqliteDatabase(db))
        measured = Scheduler(ledger, questions, clock, Platforms({"bench": NullPlatform()}))
        tracemalloc.start()  # a run of its own: tracing slows everything it watches
        await measured.start()
        held, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del measured
        scheduler = Scheduler(ledger, questions, clock, Platforms({"bench": NullPlatform()}))
        began = time.perf_counter()
        await scheduler.start()
        ours = time.perf_counter() - began
        began = time.perf_counter()
        for sid in range(1, N + 1):  # the N+1 way: each schedule and its history on its own
            s = await ledger.get(sid)
            async with db.execute(
                "SELECT max(due_at) FROM daily_posts WHERE schedule_id = ?", (sid,)
            ) as cursor:
                await cursor.fetchone()
            assert s is not None
            s.slot.next_after(clock.now())
        naive = time.perf_counter() - began
        print(
            f"start-up, {N} schedules in {len(ZONES)} zones: {ours:.3f} s (every next post "
            f"planned)   N+1 queries {naive:.3f} s   x{naive / ours:.1f}   target <= 1 s"
        )
        print(
            f"memory held by the planned loop: {held / 1e6:.1f} MB "
            f"({held / N:.0f} bytes a schedule)"
        )
        await bench_day(db, scheduler, clock)


async def bench_day(db: aiosqlite.Connection, scheduler: Scheduler, clock: JumpClock) -> None:
    """A simulated day: every wake-up has work; a poller would scan every minute instead."""
    end = clock.now() + timedelta(days=1)
    cpu = time.process_time()
    wakeups = 0
    while (due := scheduler.next_due()) is not None and due < end:
        await clock.sleep_until(due)
        await scheduler.tick()
        wakeups += 1
    ours = time.process_time() - cpu
    cpu = time.process_time()
    scans = 30
    for _ in range(scans):  # one poll: read every schedule, find who is due this minute
        async with db.execute("SELECT id, post_time, timezone FROM schedules") as cursor:
            rows = await cursor.fetchall()
        minute = clock.now()
        [r for r in rows if minute.astimezone(ZoneInfo(r[2])).strftime("%H:%M") == r[1]]
    poll = (time.process_time() - cpu) / scans
    async with db.execute("SELECT count(*) FROM daily_posts WHERE state = 'sent'") as cursor:
        posted = (await cursor.fetchone())[0]  # type: ignore[index]
    print(f"simulated day: {wakeups} wake-ups, all with work ({posted} posts), loop CPU "
          f"{ours:.2f} s ({ours / max(posted, 1) * 1000:.2f} ms a post), 0 idle wake-ups   "
          f"minute poller: {poll * 1000:.1f} ms a scan x 1440 = {poll * 1440:.1f} s CPU a day "
          "doing nothing but looking")  # fmt: skip


async def bench_idle(work: Path) -> None:
    async with bank_db(work / "idle.sqlite3") as db:
        now = datetime.now(UTC)
        later = now + timedelta(hours=2)
        rows = [("bench", f"c{i}", later.astimezone(ZoneInfo(z)).strftime("%H:%M"), z)
                for i, z in enumerate(ZONES * (N // len(ZONES) + 1))][:N]  # fmt: skip
        await insert_schedules(db, rows)
        database = SqliteDatabase(db)
        scheduler = Scheduler(ScheduleStore(database), QuestionStore(database), SystemClock(),
                              Platforms({"bench": NullPlatform()}))  # fmt: skip
        loop = asyncio.create_task(scheduler.run())
        await asyncio.sleep(1.0)  # let it start and go to sleep
        cpu = time.process_time()
        await asyncio.sleep(3.0)
        idle = time.process_time() - cpu
        loop.cancel()
        await asyncio.gather(loop, return_exceptions=True)
        print(
            f"idle, real clock, {N} schedules, nothing due: {idle * 1000:.1f} ms CPU in 3 s "
            "(the process, interpreter included)   target near zero"
        )


async def bench_lateness(work: Path) -> None:
    async with bank_db(work / "late.sqlite3") as db:
        now = datetime.now(UTC)
        minute = (now + timedelta(seconds=70)).replace(second=0, microsecond=0)
        rows = []
        for platform, at in (("fast", minute), ("serial", minute + timedelta(minutes=1))):
            rows += [(platform, f"{platform}{i}", at.astimezone(ZoneInfo(z)).strftime("%H:%M"), z)
                     for i, z in enumerate((ZONES * 3)[:SAME_MINUTE])]  # fmt: skip
        await insert_schedules(db, rows)
        fast = NullPlatform(PLATFORM_LATENCY, SAME_MINUTE)
        serial = NullPlatform(PLATFORM_LATENCY, SAME_MINUTE)
        questions, ledger = QuestionStore(SqliteDatabase(db)), ScheduleStore(SqliteDatabase(db))
        loops = [
            asyncio.create_task(Scheduler(ledger, questions, SystemClock(),
                                          Platforms({"fast": fast})).run()),
            asyncio.create_task(Scheduler(ledger, questions, SystemClock(),
                                          Platforms({"serial": serial}),
                                          SchedulerConfig(concurrency=1)).run()),
        ]  # fmt: skip
        print(
            f"lateness: waiting for {SAME_MINUTE} channels due at {minute:%H:%M:%S} UTC, "
            f"then {SAME_MINUTE} more a minute later posted one at a time ..."
        )
        arrived = asyncio.gather(fast.all_arrived.wait(), serial.all_arrived.wait())
        await asyncio.wait_for(arrived, timeout=240)
        for task in loops:
            task.cancel()
        await asyncio.gather(*loops, return_exceptions=True)
        late = [t - minute.timestamp() for t in fast.arrivals]
        slow = [t - (minute + timedelta(minutes=1)).timestamp() for t in serial.arrivals]
        print(f"lateness, {len(late)} posts in one minute, {PLATFORM_LATENCY * 1000:.0f} ms a "
              f"post: worst {max(late):.3f} s, median {statistics.median(late):.3f} s   "
              f"one at a time ({len(slow)} posts): worst {max(slow, default=0):.3f} s   "
              "target worst < 1 s")  # fmt: skip


def main() -> None:
    print(f"studybot schedule bench: {N} schedules, {len(ZONES)} time zones")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        asyncio.run(bench_start(work))
        asyncio.run(bench_idle(work))
        asyncio.run(bench_lateness(work))
