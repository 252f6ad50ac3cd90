"""Limits that travel: a problem's limit is its reference's CPU time on the grading machine
(times a factor, with a floor in standard seconds), so a machine three times faster or slower
gives every submission the same verdict.

A slower or faster machine is played at the executor boundary: `Machine(k)` runs each job on
the real sandbox with its CPU allowance divided by `k` and reports every CPU time multiplied
by `k`, which is what the same code on a machine `k` times slower would show. The old
absolute limits fail this test: on the "faster" machine the too-slow solution is accepted.
Runs that must use their whole allowance get a wall-clock deadline (`PROVING`) that a busy
machine cannot reach first."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from bot.grades import RawRun, Verdict
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import Problem
from bot.grading.proofs import PROVING
from bot.grading.timing import FixedLimits, TimeRule, TimingCache
from tests.fakes import REPO

pytestmark = pytest.mark.asyncio(loop_scope="module")

POW_LINEAR = (REPO / "content/problems/fast-power/wrong/linear-loop.py").read_text("utf-8")


class Machine:
    """The real sandbox, as seen on a machine `k` times slower (k < 1: faster)."""

    def __init__(self, sandbox: Sandbox, k: float) -> None:
        self.sandbox, self.k, self.jobs = sandbox, k, 0

    async def run(self, job: dict[str, Any], deadline: float) -> RawRun:
        self.jobs += 1
        here = job | {"time_limit": float(job["time_limit"]) / self.k}
        raw = await self.sandbox.run(here, deadline / self.k)
        raw.lines = [self._slowed(line) for line in raw.lines]
        if raw.exit is not None and raw.exit.cpu_ms is not None:
            raw.exit = dataclasses.replace(raw.exit, cpu_ms=raw.exit.cpu_ms * self.k)
        return raw

    def _slowed(self, line: bytes) -> bytes:
        event = json.loads(line)
        if isinstance(event.get("cpu_ms"), int | float):
            event["cpu_ms"] *= self.k
        return json.dumps(event).encode()


@pytest.fixture(scope="module")
def power(problems: dict[str, Problem]) -> Problem:
    return problems["fast-power"]


@pytest.mark.parametrize("k", [1 / 3, 1.0, 3.0], ids=["3x faster", "here", "3x slower"])
async def test_the_same_verdicts_on_a_faster_and_a_slower_machine(
    sandbox: Sandbox, power: Problem, k: float
) -> None:
    grader = Grader(Machine(sandbox, k), {power.id: power}, PROVING)
    try:
        rights = [await grader.grade(power, power.reference) for _ in range(3)]
        slow = await grader.grade(power, POW_LINEAR)
    finally:
        grader.close()
    right = rights[0]
    assert all(r.verdict is Verdict.ACCEPTED for r in rights)
    assert slow.verdict is Verdict.TIME_LIMIT_EXCEEDED
    assert right.limit_ms is not None and right.reference_ms is not None
    # The limit is this machine's: its rule applied to what the reference took here.
    assert right.limit_ms >= power.time_rule.times * right.reference_ms
    assert slow.limit_ms == right.limit_ms
    # Relative to the reference, a solution's time does not depend on the machine. (The
    # median of three, as the reference's own figure is: one run of a few milliseconds
    # is at the mercy of a busy machine's caches.)
    relative = sorted(r.relative_cpu or 0.0 for r in rights)[1]
    assert 0.3 < relative < 3


async def test_the_limit_scales_with_the_machine(sandbox: Sandbox, power: Problem) -> None:
    limits = []
    for k in (1.0, 3.0):
        grader = Grader(Machine(sandbox, k), {power.id: power})
        try:
            limits.append(await grader.limits.of(power))
        finally:
            grader.close()
    here, slower = limits
    # Measured twice on a noisy machine: the same within a factor, three times over it.
    assert 1.5 < slower.limit_ms / here.limit_ms < 6
    assert 1.5 < slower.reference_ms / here.reference_ms < 6


async def test_measurements_are_kept_per_machine_and_content(
    sandbox: Sandbox, power: Problem, tmp_path: Path
) -> None:
    path = tmp_path / "timing.json"
    first = Machine(sandbox, 1.0)
    grader = Grader(first, {power.id: power}, timing_cache=path)
    try:
        measured = await grader.limits.of(power)
        assert await grader.limits.of(power) == measured  # asked again: not measured again
    finally:
        grader.close()
    assert first.jobs == 6  # three runs of the reference, three of the calibration

    again = Machine(sandbox, 1.0)  # a restart: the file answers
    grader = Grader(again, {power.id: power}, timing_cache=path)
    try:
        assert await grader.limits.of(power) == measured
        changed = dataclasses.replace(power, digest="another version of its files")
        await grader.limits.of(changed)  # a new content version is measured again
    finally:
        grader.close()
    assert again.jobs == 3
    assert len(json.loads(path.read_text("utf-8"))) == 3  # calibration and two versions


async def test_a_cache_file_that_cannot_be_read_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "timing.json"
    path.write_text("{not json", encoding="utf-8")
    cache = TimingCache(path)
    assert cache.get(cache.machine_key("calibration")) is None
    cache.put(cache.machine_key("calibration"), 1.5)
    assert TimingCache(path).get(cache.machine_key("calibration")) == 1.5


async def test_a_rule_is_a_multiple_with_a_floor_in_standard_seconds(power: Problem) -> None:
    rule = TimeRule(times=5, floor=0.25)
    assert rule.limit_ms(reference_ms=100, standard_ms=1.0) == 500  # the multiple
    assert rule.limit_ms(reference_ms=10, standard_ms=1.0) == 250  # the floor
    assert rule.limit_ms(reference_ms=10, standard_ms=3.0) == 750  # a slower machine's floor
    fixed = await FixedLimits(reference_ms=40).of(power)
    assert fixed.reference_ms == 40
    assert fixed.limit_ms == power.time_rule.limit_ms(40, 1.0)


async def test_a_killed_worker_reports_the_cpu_it_used(sandbox: Sandbox, power: Problem) -> None:
    """A worker stopped for time is killed by its keeper, which reaps it, so the usage the
    zygote reports is the worker's own, not the keeper's few milliseconds."""
    grader = Grader(sandbox, {power.id: power}, PROVING, limits=FixedLimits(reference_ms=100))
    try:
        grade = await grader.grade(power, "def my_pow(x, n):\n    while True:\n        pass\n")
    finally:
        grader.close()
    assert grade.verdict is Verdict.TIME_LIMIT_EXCEEDED
    # Stopped by its CPU limit, or on a busy machine by the wall clock, it had run for more
    # than 100 ms; its keeper alone uses a few.
    assert grade.cpu_ms is not None and grade.cpu_ms > 100
