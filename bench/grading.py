"""Benchmarks of grading (`python -m bench grading`).

Two workloads: a correct rotate-matrix solution against its full test set (samples, small
cases, 100x100 and 200x200), and a trivial solution with three tiny tests (fixed overhead).
Three executors, in the same run, behind the same `Grader` and judge:

- floor:   the harness in this process (in a thread), no isolation at all;
- spawn:   a fresh `python` per submission with the same limits (the usual approach);
- sandbox: ours, a zygote forking warm workers ahead of need, one job each.

Figures: per-submission p50/p95 run one after another; throughput with 8 and 32 submissions
in flight; CPU per submission (this process, plus every worker, plus the zygote's forks); and
the event loop's worst lag while 32 gradings are in flight. As in the bot, at most SLOTS
gradings execute at once (the admission's concurrency) whatever the executor; more in
flight wait their turn, so the wall-clock deadline of each is not eaten by the others.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.grades import Exit, RawRun, Verdict
from bot.grading.admission import AdmissionConfig
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import Case, Problem, load_problems
from bot.grading.sandbox.harness import execute
from bot.grading.sandbox.policy import preload
from bot.grading.timing import FixedLimits, TimeRule
from bot.interpreter import tune_interpreter
from bot.ports import Executor

REPO = Path(__file__).resolve().parents[1]
TRIVIAL = Problem("echo", "echo", "exact", TimeRule(10, 1.0), 64, (), tuple(
    Case(i, json.dumps([i]), i, True) for i in (1, 2, 3)
))  # fmt: skip
TRIVIAL_CODE = "def echo(x):\n    return x\n"
# The same with 200 tests: against `trivial`, the cost of one more test (in the sandbox, each
# test's input is asked for and sent on its own, so no worker holds another test's data).
MANY = Problem("echo", "echo", "exact", TimeRule(10, 1.0), 64, (), tuple(
    Case(i, json.dumps([i]), i, i < 3) for i in range(200)
))  # fmt: skip
SPAWN_SCRIPT = """
import json, sys
from bot.grading.sandbox import isolation
from bot.grading.sandbox.harness import execute
job = json.loads(sys.stdin.readline())
isolation.limit_job(float(job["time_limit"]), 1 << 30)
execute(job, lambda e: sys.stdout.write(json.dumps(e) + "\\n"))
"""


SLOTS = AdmissionConfig().concurrency


class Slots:
    """Any executor behind the bot's concurrency bound."""

    def __init__(self, executor: Executor) -> None:
        self._executor, self._slots = executor, asyncio.Semaphore(SLOTS)

    async def run(self, job: dict[str, Any], deadline: float) -> RawRun:
        async with self._slots:
            return await self._executor.run(job, deadline)


class InProcess:
    """The floor: the same harness, in a thread of this process, no isolation."""

    async def run(self, job: dict[str, Any], deadline: float) -> RawRun:
        def work() -> list[bytes]:
            lines: list[bytes] = []
            execute(job, lambda e: lines.append(json.dumps(e).encode()))
            return lines

        return RawRun(lines=await asyncio.to_thread(work))


class SpawnPerSubmission:
    """The usual approach: start `python`, import, run one job, exit."""

    async def run(self, job: dict[str, Any], deadline: float) -> RawRun:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", SPAWN_SCRIPT, env={"PYTHONPATH": str(REPO)}, cwd=REPO,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, _ = await process.communicate(json.dumps(job).encode() + b"\n")
        return RawRun(lines=out.splitlines(), exit=Exit(process.returncode or 0, None, 0.0, 0))


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_cpu(pid: int | None) -> float:
    """A live process's CPU seconds, its reaped children included (the zygote's workers)."""
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(v) for v in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def reference(problem_id: str) -> str:
    """A problem's reference solution: the first python block of its explanation."""
    text = (REPO / "content" / "problems" / problem_id / "explanation.md").read_text("utf-8")
    return re.search(r"^```python\n(.*?)^```", text, re.M | re.S).group(1)  # type: ignore[union-attr]


async def timed(grader: Grader, problem: Problem, code: str) -> float:
    start = time.perf_counter()
    grade = await grader.grade(problem, code)
    assert grade.verdict is Verdict.ACCEPTED, grade
    return (time.perf_counter() - start) * 1000


async def sequential(grader: Grader, problem: Problem, code: str, n: int) -> tuple[float, float]:
    await timed(grader, problem, code)  # warm-up
    times = sorted([await timed(grader, problem, code) for _ in range(n)])
    return statistics.median(times), times[int(0.95 * (n - 1))]


async def throughput(grader: Grader, problem: Problem, code: str, concurrency: int,
                     jobs: int) -> float:  # fmt: skip
    gate = asyncio.Semaphore(concurrency)

    async def one() -> None:
        async with gate:
            await timed(grader, problem, code)

    start = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(jobs)))
    return jobs / (time.perf_counter() - start)


async def loop_lag(grader: Grader, problem: Problem, code: str, jobs: int = 32) -> float:
    """The worst lateness of a 5 ms ticker while `jobs` gradings run at once."""
    worst, done = 0.0, asyncio.Event()

    async def ticker() -> None:
        nonlocal worst
        while not done.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.005)
            worst = max(worst, time.perf_counter() - start - 0.005)

    tick = asyncio.create_task(ticker())
    await asyncio.gather(*(timed(grader, problem, code) for _ in range(jobs)))
    done.set()
    await tick
    return worst * 1000


async def cpu_per_job(grader: Grader, problem: Problem, code: str, n: int,
                      extra: Callable[[], float]) -> float:  # fmt: skip
    before = time.process_time() + children_cpu() + extra()
    for _ in range(n):
        await timed(grader, problem, code)
    await asyncio.sleep(0.3)  # let the last workers exit and be counted
    return (time.process_time() + children_cpu() + extra() - before) / n * 1000


async def measure(name: str, grader: Grader, extra: Callable[[], float],
                  workloads: list[tuple[str, Problem, str, int]]) -> dict[str, Any]:  # fmt: skip
    row: dict[str, Any] = {}
    for label, problem, code, n in workloads:
        row[label, "seq"] = await sequential(grader, problem, code, n)
        row[label, "c8"] = await throughput(grader, problem, code, 8, 2 * n)
        row[label, "c32"] = await throughput(grader, problem, code, 32, 2 * n)
        row[label, "cpu"] = await cpu_per_job(grader, problem, code, n, extra)
        row[label, "lag"] = await loop_lag(grader, problem, code)
        print(f"  {name:8} {label:8} done", file=sys.stderr)
    return row


async def bench() -> None:
    problems = load_problems(REPO / "content")
    rotate, softmax = problems["rotate-matrix"], problems["stable-softmax"]
    workloads = [("rotate", rotate, reference(rotate.id), 16),
                 ("trivial", TRIVIAL, TRIVIAL_CODE, 48), ("many", MANY, TRIVIAL_CODE, 24),
                 ("softmax", softmax, reference(softmax.id), 16)]  # fmt: skip
    preload()
    every = {rotate.id: rotate, TRIVIAL.id: TRIVIAL, softmax.id: softmax}  # MANY is "echo" too
    sandbox = Sandbox(warm=8)
    layers = await sandbox.start()
    results: dict[str, dict[str, Any]] = {}
    try:
        runs: list[tuple[str, Executor, Callable[[], float]]] = [
            ("floor", InProcess(), lambda: 0.0),
            ("spawn", SpawnPerSubmission(), lambda: 0.0),
            ("sandbox", sandbox, lambda: process_cpu(sandbox.pid)),
        ]
        for name, executor, extra in runs:
            # Limits as on a standard machine: this measures grading, not calibration.
            grader = Grader(Slots(executor), every, limits=FixedLimits())
            results[name] = await measure(name, grader, extra, workloads)
    finally:
        await sandbox.close()
    report(results, layers.describe())


def report(results: dict[str, dict[str, Any]], layers: str) -> None:
    print(f"\ngrading ({SLOTS} at once; sandbox isolation {layers})")
    header = f"{'workload':9} {'executor':8} {'p50 ms':>8} {'p95 ms':>8} {'c8 /s':>8} " \
             f"{'c32 /s':>8} {'cpu ms':>8} {'lag ms':>8}"  # fmt: skip
    print(header)
    for label in ("rotate", "trivial", "many", "softmax"):
        for name, row in results.items():
            p50, p95 = row[label, "seq"]
            print(
                f"{label:9} {name:8} {p50:8.1f} {p95:8.1f} {row[label, 'c8']:8.1f} "
                f"{row[label, 'c32']:8.1f} {row[label, 'cpu']:8.1f} {row[label, 'lag']:8.1f}"
            )
        floor, spawn, ours = results["floor"], results["spawn"], results["sandbox"]
        print(f"  {label}: isolation costs {ours[label, 'seq'][0] - floor[label, 'seq'][0]:+.1f}"
              f" ms at p50 over the floor; {spawn[label, 'seq'][0] / ours[label, 'seq'][0]:.1f}x"
              f" faster than spawn per submission; throughput at c32 is "
              f"{ours[label, 'c32'] / floor[label, 'c32']:.0%} of the floor's")  # fmt: skip
    floor, ours = results["floor"], results["sandbox"]
    extra = ((ours["many", "seq"][0] - ours["trivial", "seq"][0])
             - (floor["many", "seq"][0] - floor["trivial", "seq"][0])) / 197  # fmt: skip
    print(
        f"  one more test costs the sandbox {extra * 1000:+.0f} µs over the floor "
        "(its input asked for and sent on its own)"
    )


def main() -> None:
    tune_interpreter()  # as `studybot` does at start
    asyncio.run(bench())
