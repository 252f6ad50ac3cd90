"""Several scheduler processes over one database, no leader: each slot is posted once, a
process that dies after claiming loses no slot (nor weekly summary), and a change made
through one process reaches the others' plans.

A "process" is a whole `Scheduler` with its own connection (a psycopg pool; or its own
aiosqlite connection to the one WAL file), its own fake platform (the same platform, seen by
each process through its own client) and its own name on the claims. All share one fake
clock, as processes share the wall clock. The bank's questions are read from the SQLite
content database (`QuestionStore` is on SQLite only for now); on PostgreSQL the ledger's
foreign keys find them copied there. Runs on both engines.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiosqlite
import pytest

from bot.platforms import Platforms
from bot.schedule.model import AnswerTiming, Schedule, parse_days
from bot.schedule.times import parse_local_time, parse_zone
from bot.scheduler import Scheduler
from bot.scheduler.summary import Summaries
from bot.store.boards import BoardStore
from bot.store.database import open_database
from bot.store.db import Database, SqliteDatabase
from bot.store.postgres.database import open_postgres
from bot.store.postgres.db import PostgresDatabase
from bot.store.questions import QuestionStore
from bot.store.schedules import ScheduleStore
from bot.store.summaries import SummaryStore
from bot.types import ChannelRef, MessageRef, Reply, User
from tests.fakes import FakeAdapter, FakeClock, Sent
from tests.waiting import PATIENCE, until

SLOT = datetime(2026, 3, 2, 1, 0, tzinfo=UTC)  # 09:00 in Shanghai, every schedule's time
QUESTION_ROWS = "SELECT id, title, kind, difficulty, answer, content_hash FROM questions"


class Gate:
    """The platform as one process sees it: posts wait at the gate until it opens (a slow
    platform), or forever (the process dies mid-post)."""

    def __init__(self) -> None:
        self.platform, self.open = FakeAdapter(), asyncio.Event()
        self.open.set()
        self.waiting = 0

    async def send(self, channel: ChannelRef, reply: Reply, *, thread_of: MessageRef | None = None,
                   nonce: str | None = None) -> MessageRef:  # fmt: skip
        self.waiting += 1
        await self.open.wait()
        self.waiting -= 1
        return await self.platform.send(channel, reply, thread_of=thread_of, nonce=nonce)

    async def edit(self, message: MessageRef, reply: Reply) -> None:
        await self.platform.edit(message, reply)

    async def send_direct(self, user: User, reply: Reply) -> None:
        await self.platform.send_direct(user, reply)

    @property
    def sent(self) -> list[Sent]:
        return self.platform.sent


@dataclass
class Process:
    scheduler: Scheduler
    gate: Gate
    ledger: ScheduleStore


@dataclass
class Fleet:
    spawn: Callable[[str], Awaitable[Process]]
    db: Database  # for the test's own set-up


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest) -> str | None:
    """None for SQLite; a fresh PostgreSQL database's DSN (the cluster starts outside any
    event loop)."""
    return None if request.param == "sqlite" else str(request.getfixturevalue("postgres_dsn"))


@pytest.fixture
async def fleet(engine: str | None, loaded_db: aiosqlite.Connection, tmp_path: Path,
                clock: FakeClock) -> AsyncIterator[Fleet]:  # fmt: skip
    path = tmp_path / "data" / "test.sqlite3"  # the file `loaded_db` holds
    async with AsyncExitStack() as stack:

        async def database() -> tuple[Database, aiosqlite.Connection]:
            content = await stack.enter_async_context(open_database(path))
            if engine is None:
                return SqliteDatabase(content), content
            pool = await stack.enter_async_context(open_postgres(engine, max_size=4))
            return PostgresDatabase(pool), content

        async def spawn(name: str) -> Process:
            db, content = await database()
            gate, ledger = Gate(), ScheduleStore(db)
            platforms = Platforms({"test": gate})
            summaries = Summaries(SummaryStore(db), BoardStore(db), platforms, clock)
            scheduler = Scheduler(ledger, QuestionStore(SqliteDatabase(content)), clock,
                                  platforms, summaries=summaries, owner=name)  # fmt: skip
            return Process(scheduler, gate, ledger)

        setup, _ = await database()
        if engine is not None:
            rows = await loaded_db.execute_fetchall(QUESTION_ROWS)
            await setup.executemany(
                "INSERT INTO questions (id, title, kind, difficulty, answer, content_hash) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [tuple(r) for r in rows],
            )
        yield Fleet(spawn, setup)


async def schedules(db: Database, n: int, answer: str = "+1h") -> None:
    await db.executemany(
        """INSERT INTO schedules (platform, workspace, channel, post_time, timezone, days,
               coding_days, topic, answer) VALUES ('test', 'guild', ?, '09:00',
               'Asia/Shanghai', 127, 0, NULL, ?)""",
        [(f"c{i}", answer) for i in range(n)],
    )


async def started(fleet: Fleet, clock: FakeClock, n: int = 3) -> list[Process]:
    clock.set(SLOT - timedelta(minutes=1))
    processes = [await fleet.spawn(f"p{i}") for i in range(n)]
    for p in processes:
        await p.scheduler.start()
    return processes


async def tick_all(processes: list[Process], clock: FakeClock, at: datetime) -> None:
    clock.set(at)
    await asyncio.gather(*(p.scheduler.tick() for p in processes))


def posted(processes: list[Process], answers: bool = False) -> Counter[str]:
    """How many times each channel got a question (or an answer), across the processes."""
    return Counter(s.channel.channel for p in processes for s in p.gate.sent
                   if (s.thread_of is not None) is answers)  # fmt: skip


async def one_killed_mid_tick(fleet: Fleet, clock: FakeClock, in_flight: int) -> list[Process]:
    """Three processes; the first ticks at SLOT, claims, and dies (SIGKILL) with `in_flight`
    sends waiting at its platform, which none of them reaches. The two alive."""
    dying, *alive = await started(fleet, clock)
    dying.gate.open.clear()  # its posts never reach the platform, nor the ledger
    clock.set(SLOT)
    doomed = asyncio.create_task(dying.scheduler.tick())
    await until(lambda: dying.gate.waiting == in_flight)  # all claimed, all in flight
    doomed.cancel()
    await asyncio.gather(doomed, return_exceptions=True)
    return alive


async def test_three_processes_post_500_slots_due_in_one_minute_exactly_once(
    fleet: Fleet, clock: FakeClock
) -> None:
    await schedules(fleet.db, 500)
    processes = await started(fleet, clock)
    await tick_all(processes, clock, SLOT)
    questions = posted(processes)
    assert len(questions) == 500 and set(questions.values()) == {1}
    # The answers follow an hour later, once each, in the thread of the question, whichever
    # process posted it.
    await tick_all(processes, clock, SLOT + timedelta(hours=1))
    answers = posted(processes, answers=True)
    assert len(answers) == 500 and set(answers.values()) == {1}
    asked = {s.channel.channel: s.ref for p in processes for s in p.gate.sent if not s.thread_of}
    assert all(s.thread_of == asked[s.channel.channel]
               for p in processes for s in p.gate.sent if s.thread_of)  # fmt: skip


async def test_a_process_killed_after_claiming_loses_no_slot(
    fleet: Fleet, clock: FakeClock
) -> None:
    await schedules(fleet.db, 40)
    alive = await one_killed_mid_tick(fleet, clock, in_flight=40)
    await tick_all(alive, clock, SLOT + timedelta(seconds=30))
    assert posted(alive) == Counter()  # the claims are still leased: no one takes them yet
    await tick_all(alive, clock, SLOT + timedelta(seconds=75))  # the lease lapsed
    questions = posted(alive)
    assert len(questions) == 40 and set(questions.values()) == {1}
    await tick_all(alive, clock, SLOT + timedelta(hours=1, seconds=75))
    answers = posted(alive, answers=True)
    assert len(answers) == 40 and set(answers.values()) == {1}


async def test_a_process_killed_before_sending_its_weekly_summaries_loses_none(
    fleet: Fleet, clock: FakeClock
) -> None:
    """Monday 09:00: ten channels' weekly summaries are due (and no question: they post on
    Tuesdays). The process that claims them dies with every send in flight; once its leases
    lapse, the others send each summary once."""
    await schedules(fleet.db, 10)
    await fleet.db.execute("UPDATE schedules SET days = 2, summary = 'weekly'")  # Tuesdays
    alive = await one_killed_mid_tick(fleet, clock, in_flight=10)
    await tick_all(alive, clock, SLOT + timedelta(seconds=30))
    assert posted(alive) == Counter()  # still leased: their own jobs found them claimed
    await tick_all(alive, clock, SLOT + timedelta(seconds=75))  # the leases lapsed
    summaries = posted(alive)
    assert len(summaries) == 10 and set(summaries.values()) == {1}
    sent = [s for p in alive for s in p.gate.sent]
    assert all((s.reply.title or "").startswith("Last week here") for s in sent), sent
    await tick_all(alive, clock, SLOT + timedelta(minutes=5))
    assert sum(posted(alive).values()) == 10  # and never again
    states = await fleet.db.fetch_all("SELECT DISTINCT state FROM summary_posts")
    assert [r[0] for r in states] == ["sent"]


async def test_a_live_process_slow_to_post_keeps_its_claims(fleet: Fleet, clock: FakeClock) -> None:
    await schedules(fleet.db, 5)
    slow, *others = await started(fleet, clock)
    slow.gate.open.clear()
    running = asyncio.create_task(slow.scheduler.run())
    try:
        clock.set(SLOT)
        await until(lambda: slow.gate.waiting == 5)
        for seconds in range(10, 181, 10):  # three minutes stuck at the platform, alive
            clock.set(SLOT + timedelta(seconds=seconds))
            renewed = SLOT + timedelta(seconds=seconds + 10)
            await until(lambda at=renewed: at in clock.sleeping_until)  # its heartbeat renewed
            await asyncio.gather(*(p.scheduler.tick() for p in others))
        assert posted(others) == Counter()
        slow.gate.open.set()
        await until(lambda: len(slow.gate.sent) == 5)
    finally:
        slow.scheduler.stop()
        await asyncio.wait_for(running, PATIENCE)
    await tick_all(others, clock, SLOT + timedelta(minutes=10))
    assert posted([slow, *others]) == Counter({f"c{i}": 1 for i in range(5)})


async def test_a_schedule_changed_through_one_process_reaches_the_others(
    fleet: Fleet, clock: FakeClock
) -> None:
    processes = await started(fleet, clock)
    first = processes[0]
    draft = Schedule(
        id=0, channel=ChannelRef("test", "new", "guild"), post_at=parse_local_time("09:00"),
        zone=parse_zone("Asia/Shanghai"), days=parse_days("daily"),
        coding_days=parse_days("none"), answer=AnswerTiming.parse("+1h"), topic=None,
    )  # fmt: skip
    created = await first.ledger.save(draft)
    await first.scheduler.schedule_changed(created.id)  # as `/schedule set` does
    await tick_all(processes, clock, SLOT - timedelta(seconds=50))  # the others look
    assert all(p.scheduler.next_due() == SLOT for p in processes)
    await tick_all(processes, clock, SLOT)
    assert posted(processes) == Counter({"new": 1})
    # Paused through one process: no process posts it the next day.
    await first.ledger.set_paused(created.id, True, "paused by an admin")
    await first.scheduler.schedule_changed(created.id)
    await tick_all(processes, clock, SLOT + timedelta(hours=2))
    await tick_all(processes, clock, SLOT + timedelta(days=1))
    assert posted(processes) == Counter({"new": 1})
    # Resumed elsewhere, then removed elsewhere: the others follow each time.
    await processes[1].ledger.save(draft)
    await tick_all(processes, clock, SLOT + timedelta(days=1, hours=1))
    assert all(p.scheduler.next_due() == SLOT + timedelta(days=2) for p in processes)
    await processes[2].ledger.remove(created.id)
    await tick_all(processes, clock, SLOT + timedelta(days=1, hours=2))
    await tick_all(processes, clock, SLOT + timedelta(days=2))
    assert posted(processes) == Counter({"new": 1})
