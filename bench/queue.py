"""Benchmarks of the grading queue (`python -m bench queue`), on a throwaway PostgreSQL cluster.

1. Throughput on rotate-matrix (its full test set): BURST correct submissions from as many
   members, sent at once through one bot process's queued grading, graded by one
   `studybot grader` process, then by two (each `--concurrency 1`: a core each). Figures:
   wall time from the first `/submit` to the last verdict, submissions a second, the ratio.
2. Latency: SEQUENTIAL submissions one after another, each timed from `submit` to its Grade,
   through the queue (one idle grader) and in process (SQLite, the sandbox in this
   process, as `open_grading` builds it), interleaved in the same run. Figures: p50 and
   p95 of each, and the queue's p50 overhead.

Graders are real subprocesses; the bot side is `open_queued_grading` over its own pool.
"""

from __future__ import annotations

import asyncio
import re
import statistics
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path

import psycopg

from bot.clock import SystemClock
from bot.grades import Grade, Verdict
from bot.grading.admission import Admission
from bot.grading.case_cache import CaseCache
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import load_problems
from bot.grading.service import Grading
from bot.grading.shared_admission import SharedAdmissionConfig
from bot.store.database import open_database
from bot.store.db import SqliteDatabase
from bot.store.submissions import SubmissionStore
from bot.types import Locale, User
from tests.grading.queue_support import Graders, bot_process, queue_settings
from tests.postgres import find_bindir, running_cluster

REPO = Path(__file__).resolve().parents[1]
PROBLEM = "rotate-matrix"
BURST = 40
SEQUENTIAL = 30


def _reference() -> str:
    text = (REPO / "content/problems" / PROBLEM / "explanation.md").read_text("utf-8")
    found = re.search(r"^```python\n(.*?)^```", text, re.M | re.S)
    assert found is not None
    return found.group(1)


async def _burst(grading: Grading, tag: str) -> float:
    """Seconds from the first submit of BURST (from as many members) to the last verdict."""
    problem, code = grading.problem(PROBLEM), _reference()
    assert problem is not None
    start = time.perf_counter()
    grades = await asyncio.gather(*(
        grading.submit(User("bench", f"{tag}{i}", "m"), Locale.EN, problem, code)
        for i in range(BURST)
    ))  # fmt: skip
    took = time.perf_counter() - start
    assert all(g.verdict is Verdict.ACCEPTED for g in grades)
    return took


async def _timed(submitted: Awaitable[Grade]) -> float:
    start = time.perf_counter()
    grade = await submitted
    assert grade.verdict is Verdict.ACCEPTED
    return (time.perf_counter() - start) * 1000


async def _throughput(dsn: str, cache: Path) -> None:
    graders = Graders(dsn, cache)
    limits = SharedAdmissionConfig(queue_size=10 * BURST)
    try:
        async with bot_process(queue_settings(dsn, cache), SystemClock(), limits) as grading:
            await graders.start("--concurrency", "1")
            await _burst(grading, "warm-a")
            one = await _burst(grading, "one")
            await graders.start("--concurrency", "1")
            await _burst(grading, "warm-b")
            two = await _burst(grading, "two")
    finally:
        await graders.stop_all()
    print(f"throughput, {BURST} x {PROBLEM} at once:")
    print(f"  1 grader : {one:6.2f} s  {BURST / one:5.2f} /s")
    print(f"  2 graders: {two:6.2f} s  {BURST / two:5.2f} /s   ratio {one / two:.2f}x")


async def _latency(dsn: str, cache: Path, tmp: Path) -> None:
    graders, clock = Graders(dsn, cache), SystemClock()
    problems = await asyncio.to_thread(load_problems, REPO / "content", CaseCache(cache / "cases"))
    problem, code = problems[PROBLEM], _reference()
    box = Sandbox(warm=2)
    await box.start()
    grader = Grader(box, problems)
    try:
        async with (
            open_database(tmp / "bench.sqlite3") as db,
            bot_process(queue_settings(dsn, cache), clock) as queued,
        ):
            here = Grading(grader, Admission(clock), SubmissionStore(SqliteDatabase(db)), clock)
            await graders.start("--concurrency", "1")
            ways = {"queue": queued, "in process": here}
            times: dict[str, list[float]] = {name: [] for name in ways}
            for i in range(SEQUENTIAL + 3):
                for name, grading in ways.items():  # interleaved: the same load on both
                    who = User("bench", f"lat{i}", "m")
                    took = await _timed(grading.submit(who, Locale.EN, problem, code))
                    if i >= 3:  # the first few warm both paths up
                        times[name].append(took)
    finally:
        await graders.stop_all()
        grader.close()
        await box.close()
    print(f"/submit to verdict, {SEQUENTIAL} x {PROBLEM} one after another:")
    for name, values in times.items():
        p95 = statistics.quantiles(values, n=20)[-1]
        print(f"  {name:<10}: p50 {statistics.median(values):7.1f} ms  p95 {p95:7.1f} ms")
    extra = statistics.median(times["queue"]) - statistics.median(times["in process"])
    print(f"  queue overhead at p50: {extra:+.1f} ms")


async def _run(dsn: str) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-queue-") as folder:
        tmp = Path(folder)
        cache = tmp / "cache"  # the problems' tests computed once, read by every grader
        await asyncio.to_thread(load_problems, REPO / "content", CaseCache(cache / "cases"))
        await _latency(dsn, cache, tmp)
        await _throughput(dsn, cache)


def main() -> None:
    bindir = find_bindir()
    if bindir is None:
        print("queue: skipped, no PostgreSQL server binaries")
        return
    with running_cluster(bindir) as cluster:
        with psycopg.connect(cluster.dsn(), autocommit=True) as admin:
            admin.execute("CREATE DATABASE bench_queue")
        asyncio.run(_run(cluster.dsn("bench_queue")))
