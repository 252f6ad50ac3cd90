"""The scheduler in several processes over one PostgreSQL database (`python -m bench fleet`).

1,000 channels, in zones all over the world, due in the same minute; three scheduler
processes (real OS processes, each with its own pool, its own platform client taking 20 ms a
post, and its own name on the claims) against one throwaway local cluster; then the same
with one process, for comparison. Figures: worst and median lateness (when the platform
accepted the post minus when it was due), how the posts split between the processes, and
that each was posted once.

The processes share a clock shifted so that the minute falls a few seconds after they start
(wall time plus one offset, speed 1), so the run waits seconds, not a minute. The bank's
questions are copied from a SQLite build of it into PostgreSQL, where every process reads
them.
"""

from __future__ import annotations

import asyncio
import json
import signal
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import psycopg

from bench.schedule import PLATFORM_LATENCY, ZONES, NullPlatform, bank_db
from bot.platforms import Platforms
from bot.scheduler import Scheduler
from bot.store.postgres.database import open_postgres
from bot.store.postgres.db import PostgresDatabase
from bot.store.questions import QuestionStore
from bot.store.schedules import ScheduleStore
from tests.postgres import Cluster, find_bindir, running_cluster

SAME_MINUTE = 1_000
SLOT = datetime(2026, 3, 2, 1, 0, tzinfo=UTC)
LEAD = 12.0  # seconds from starting the processes to the minute: time to connect and plan
QUESTION_ROWS = "SELECT id, title, kind, difficulty, answer, content_hash FROM questions"


class ShiftedClock:
    """Wall time plus a fixed offset: the same instant in every process."""

    def __init__(self, offset: float) -> None:
        self.offset = timedelta(seconds=offset)

    def now(self) -> datetime:
        return datetime.now(UTC) + self.offset

    async def sleep_until(self, when: datetime) -> None:
        while (remaining := (when - self.now()).total_seconds()) > 0:  # noqa: ASYNC110
            await asyncio.sleep(min(remaining, 60.0))


# --- one scheduler process ---------------------------------------------------------------


async def _worker(dsn: str, offset: float, name: str) -> None:
    stopping = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopping.set)
    platform = NullPlatform(PLATFORM_LATENCY)
    async with open_postgres(dsn, max_size=4) as pool:
        db = PostgresDatabase(pool)
        scheduler = Scheduler(ScheduleStore(db), QuestionStore(db), ShiftedClock(offset),
                              Platforms({"bench": platform}), owner=name)  # fmt: skip
        await scheduler.start()
        ready = time.time()
        running = asyncio.create_task(scheduler.run(), name="bench-scheduler")
        await stopping.wait()
        scheduler.stop()
        await running
    print(json.dumps({"name": name, "ready": ready, "arrivals": platform.arrivals}), flush=True)


# --- the run -------------------------------------------------------------------------------


def _database(cluster: Cluster, name: str) -> str:
    with psycopg.connect(cluster.dsn(), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"'.encode())
        admin.execute(f'CREATE DATABASE "{name}"'.encode())
    return cluster.dsn(name)


async def _prepare(dsn: str, bank: Path) -> None:
    """Migrate; copy the questions; 1,000 schedules whose local time is the minute."""
    async with bank_db(bank) as content, open_postgres(dsn, max_size=1) as pool:
        db = PostgresDatabase(pool)
        rows = await content.execute_fetchall(QUESTION_ROWS)
        await db.executemany("INSERT INTO questions (id, title, kind, difficulty, answer, "
                             "content_hash) VALUES (?, ?, ?, ?, ?, ?)",
                             [tuple(r) for r in rows])  # fmt: skip
        await db.executemany(
            """INSERT INTO schedules (platform, workspace, channel, post_time, timezone, days,
                   coding_days, topic, answer) VALUES ('bench', 'bench', ?, ?, ?, 127, 0,
                   NULL, '+4h')""",
            [(f"c{i}", SLOT.astimezone(ZoneInfo(z)).strftime("%H:%M"), z)
             for i, z in enumerate((ZONES * 3)[:SAME_MINUTE])],
        )  # fmt: skip


async def _posted(dsn: str) -> int:
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        cursor = await conn.execute(
            "SELECT count(*) FROM daily_posts WHERE part = 'question' AND state = 'sent'"
        )
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def _round(dsn: str, bank: Path, processes: int) -> None:
    await _prepare(dsn, bank)
    offset = (SLOT - datetime.now(UTC)).total_seconds() - LEAD
    due_wall = SLOT.timestamp() - offset
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.fleet", dsn, repr(offset), f"p{n}",
            stdout=asyncio.subprocess.PIPE,
        )
        for n in range(processes)
    ]  # fmt: skip
    deadline = time.time() + LEAD + 120
    # Polling another process's work through the database: there is no event to await.
    while await _posted(dsn) < SAME_MINUTE and time.time() < deadline:  # noqa: ASYNC110
        await asyncio.sleep(0.5)
    await asyncio.sleep(1.0)  # anything posted twice would arrive about now
    outputs = []
    for worker in workers:
        worker.send_signal(signal.SIGTERM)
        out, _ = await worker.communicate()
        outputs.append(json.loads(out.decode().strip().splitlines()[-1]))
    late = sorted(t - due_wall for o in outputs for t in o["arrivals"])
    split = " + ".join(str(len(o["arrivals"])) for o in outputs)
    ready = max(o["ready"] for o in outputs) - due_wall
    print(f"  {processes} process(es): {len(late)} posts ({split}), recorded sent "
          f"{await _posted(dsn)}; lateness worst {max(late, default=0):.3f} s, median "
          f"{statistics.median(late) if late else 0:.3f} s   target worst < 2 s   (the last "
          f"process was ready {-ready:.1f} s before the minute)")  # fmt: skip


async def _main(cluster: Cluster) -> None:
    with tempfile.TemporaryDirectory() as folder:
        print(
            f"fleet: {SAME_MINUTE} channels due in one minute, {PLATFORM_LATENCY * 1000:.0f} "
            "ms a post, schedulers as OS processes on one PostgreSQL 15 (local, fsync off)"
        )
        for processes in (3, 1):
            bank = Path(folder) / f"bank{processes}.sqlite3"
            await _round(_database(cluster, f"fleet{processes}"), bank, processes)


def main() -> None:
    bindir = find_bindir()
    if bindir is None:
        print("fleet skipped: no PostgreSQL server binaries (initdb, pg_ctl) installed")
        return
    with running_cluster(bindir) as cluster:
        asyncio.run(_main(cluster))


if __name__ == "__main__":
    _, dsn, offset, name = sys.argv
    asyncio.run(_worker(dsn, float(offset), name))
