"""Time limits that travel: each problem's limit, in CPU time of the machine that grades.

A judge file states its limit relative to the problem's reference solution:

    time_limit: {times: 5, floor: 0.5}

`times` multiplies the reference's CPU time for the whole run, measured on the grading
machine in its own sandbox; `floor` is the least the limit may be, in standard seconds. A
limit written in plain seconds would encode the speed of the machine it was written on: a
grader three times faster would accept what it was meant to refuse, and two graders of one
deployment could give one submission two verdicts. Measured this way, a submission meets
the same verdict on every machine, and its CPU time divided by the reference's (what the
leaderboards compare) means the same wherever it was graded.

**Measuring.** The reference is graded like any submission (the same executor, sandbox and
restricted compiler, with a generous allowance) `RUNS` times, and the median CPU time is
kept: one run can meet a cold cache or a busy neighbour, three rarely all do.

**Standard seconds.** A reference that takes a few milliseconds would make its multiple too
small to time honestly, so a floor keeps limits sane; for the floor to travel too it is
written in standard seconds: the CPU time of `CALIBRATION` (a fixed mix of interpreter work,
graded the same way) is `CALIBRATION_STANDARD_MS` standard milliseconds by definition, so a
machine's standard second is its own measured calibration time scaled by that ratio.

**Cache.** Measuring the whole bank costs seconds, so measurements are kept in one JSON file
under keys naming what decides them: this machine (CPU model, hostname, Python), the grading
code, and for a problem its judge file, generators and reference. A change to any measures
that problem again; a file that cannot be read or written only costs the time.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import platform
import statistics
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from bot.errors import GradingUnavailable
from bot.grades import Grade, Verdict
from bot.grading.case_cache import engine_digest

if TYPE_CHECKING:
    from bot.grading.problems import Problem

log = logging.getLogger(__name__)

TIMING_FILE = "timing.json"  # in the cache folder
RUNS = 3  # measurements of each reference (and of the calibration); the median is kept
MEASURE_SECONDS = 60.0  # the CPU allowance of a measuring run: never the limit being found
CALIBRATION = """
def work():
    seen, total = {}, 0
    for i in range(150_000):
        key = (i * 7919) % 1009
        seen[key] = seen.get(key, 0) + i
        total += len(str(i)) + (i & 15)
    words = sorted(str(v) for v in seen.values())
    return total + len(words) + sum(int(w[-1]) for w in words)
work()
"""
# What CALIBRATION takes, whole worker included, defined as 200 standard milliseconds (the
# figure measured on the machine the bank's floors were written on: 2 cores of a 2020s
# server, Python 3.11).
CALIBRATION_STANDARD_MS = 200.0


class UnmeasurableReference(GradingUnavailable):
    """A problem's reference is not accepted in this sandbox, so it has no limit here: the
    content is at fault (`content validate` says so), and the problem cannot be graded."""

    def __init__(self, problem: Problem, grade: Grade) -> None:
        super().__init__(f"{problem.id}: its reference solution is not accepted in this "
                         f"sandbox ({grade.verdict})")  # fmt: skip
        self.grade = grade


@dataclass(frozen=True, slots=True)
class TimeRule:
    """A judge file's `time_limit`: a multiple of the reference's CPU time, with a floor."""

    times: float
    floor: float  # standard seconds

    def limit_ms(self, reference_ms: float, standard_ms: float) -> float:
        """This machine's limit, given its reference time and what a standard millisecond
        takes on it (`standard_ms` of its CPU milliseconds)."""
        return max(self.times * reference_ms, self.floor * 1000 * standard_ms)


@dataclass(frozen=True, slots=True)
class TimeLimit:
    """A problem's limit on this machine, and the reference time it was derived from."""

    limit_ms: float
    reference_ms: float

    @property
    def seconds(self) -> float:
        return self.limit_ms / 1000


class TimeLimits(Protocol):
    """Where a grader learns a problem's limit: measured (`MeasuredLimits`), or fixed by a
    test whose executor runs nothing real."""

    async def of(self, problem: Problem) -> TimeLimit: ...


Timed = Callable[["Problem | None", str, float], Awaitable[Grade]]


class MeasuredLimits:
    """Each problem's limit on this machine, measured once (and kept in `cache`).

    `timed(problem, code, seconds)` grades `code` with a CPU allowance of `seconds` (the
    grader's own path, so measuring meets exactly what submissions meet); with no problem
    it runs `code` as a script. Concurrent asks for one problem share one measurement."""

    def __init__(self, timed: Timed, cache: TimingCache | None = None) -> None:
        self._timed, self._cache = timed, cache
        self._measuring: dict[str, asyncio.Task[float]] = {}

    async def of(self, problem: Problem) -> TimeLimit:
        name = f"{problem.id}\0{problem.digest}"  # (a new version is measured anew)
        reference = await self._once(name, lambda: self._reference_ms(problem))
        standard = await self._once("", self._standard_ms)
        return TimeLimit(problem.time_rule.limit_ms(reference, standard), reference)

    async def standard_ms(self) -> float:
        """CPU milliseconds of this machine in one standard millisecond."""
        return await self._once("", self._standard_ms)

    async def _once(self, name: str, measure: Callable[[], Awaitable[float]]) -> float:
        task = self._measuring.get(name)
        if task is None or (task.done() and task.exception() is not None):
            task = asyncio.ensure_future(measure())
            self._measuring[name] = task
        return await asyncio.shield(task)

    async def _reference_ms(self, problem: Problem) -> float:
        key = self._cache.problem_key(problem) if self._cache else ""
        return await self._median(key, problem.id, problem, problem.reference)

    async def _standard_ms(self) -> float:
        key = self._cache.machine_key("calibration") if self._cache else ""
        return await self._median(key, "calibration", None, CALIBRATION) / CALIBRATION_STANDARD_MS

    async def _median(self, key: str, name: str, problem: Problem | None, code: str) -> float:
        """The median CPU time of `RUNS` gradings of `code` on `problem`'s tests (or as a
        script), kept under `key`, or read from it."""
        if self._cache and (known := self._cache.get(key)) is not None:
            return known
        runs = []
        for _ in range(RUNS):
            grade = await self._timed(problem, code, MEASURE_SECONDS)
            if grade.verdict is not Verdict.ACCEPTED or grade.cpu_ms is None:
                if problem is not None:
                    raise UnmeasurableReference(problem, grade)
                raise GradingUnavailable(f"the calibration did not run ({grade.verdict})")
            runs.append(grade.cpu_ms)
        median = statistics.median(runs)
        log.info("measured %s on this machine: %.3f ms", name, median)
        if self._cache is not None:
            self._cache.put(key, median)
        return median


class FixedLimits:
    """Every problem's limit as its rule gives it for a reference of `reference_ms` on a
    standard machine: for executors that run nothing real, and for the operator's drill."""

    def __init__(self, reference_ms: float = 100.0) -> None:
        self._reference_ms = reference_ms

    async def of(self, problem: Problem) -> TimeLimit:
        limit = problem.time_rule.limit_ms(self._reference_ms, 1.0)
        return TimeLimit(limit, self._reference_ms)


class TimingCache:
    """Measurements by key, in one JSON file shared by every grader on this machine."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._machine = _machine_digest()
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
            self._known: dict[str, float] = {
                str(k): float(v) for k, v in loaded.items() if isinstance(v, int | float)
            }
        except (OSError, ValueError, TypeError, AttributeError):
            self._known = {}

    def machine_key(self, name: str) -> str:
        return hashlib.sha256(f"{self._machine}\0{name}".encode()).hexdigest()[:32]

    def problem_key(self, problem: Problem) -> str:
        return self.machine_key(f"{problem.id}\0{problem.digest}")

    def get(self, key: str) -> float | None:
        return self._known.get(key)

    def put(self, key: str, value: float) -> None:
        """Keep `value`, merged with what other processes kept meanwhile."""
        try:
            on_disk = json.loads(self._path.read_text(encoding="utf-8"))
            merged: dict[str, Any] = on_disk if isinstance(on_disk, dict) else {}
        except (OSError, ValueError):
            merged = {}
        self._known = {**merged, **self._known, key: value}
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self._path.with_name(f".{self._path.name}.{os.getpid()}.tmp")
            temporary.write_text(json.dumps(self._known, sort_keys=True), encoding="utf-8")
            temporary.replace(self._path)
        except OSError:
            pass


def _machine_digest() -> str:
    """This machine as far as speed goes: its CPU, its name, the Python, the grading code."""
    try:
        with Path("/proc/cpuinfo").open(encoding="utf-8") as f:
            cpu = next((line for line in f if line.startswith("model name")), "")
    except OSError:
        cpu = platform.processor()
    machine = f"{cpu}\0{platform.node()}\0{platform.python_version()}\0{engine_digest()}"
    return hashlib.sha256(machine.encode()).hexdigest()
