"""The grader: turns (problem, code) into a job, runs it on an Executor, judges the report.

The Executor port (bot/ports.py) is the sandbox in production and an in-process runner in
the benchmark's "no isolation" floor. A problem's CPU limit comes from its `TimeLimits`
(bot/grading/timing.py): by default measured on this machine through this grader's own
path, so the reference meets exactly what submissions meet. The grade carries the limit it
was judged against and the reference time it came from. The executor's wall-clock deadline is
a multiple of the CPU limit (`GraderConfig`); CPU is limited again inside.
"""

from __future__ import annotations

import asyncio
import dataclasses
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.grades import Grade
from bot.grading.judge import judge
from bot.grading.problems import Problem
from bot.grading.timing import MeasuredLimits, TimeLimits, TimingCache
from bot.ports import Executor, Metrics, NoMetrics


@dataclass(frozen=True, slots=True)
class GraderConfig:
    output_cap: int = 4000  # characters of printed output kept
    run_time_limit: float = 2.0  # CPU seconds for a free-form `run`
    run_memory_mb: int = 128
    # The wall-clock deadline: the CPU limit times `deadline_factor`, plus `deadline_margin`
    # for start-up and reporting. A solution cannot sleep, so the deadline only catches one
    # that blocks. It is generous because workers run niced: beside busy processes a worker
    # gets a tenth of a core, and its CPU limit, not the wall clock, must be what stops it,
    # or the verdict would depend on the machine's load. A solution over its CPU limit is
    # stopped by that limit, so only a blocked one waits this long.
    deadline_factor: float = 10.0
    deadline_margin: float = 1.5


class Grader:
    def __init__(self, executor: Executor, problems: dict[str, Problem],
                 config: GraderConfig = GraderConfig(), *, limits: TimeLimits | None = None,
                 timing_cache: Path | None = None,
                 metrics: Metrics | None = None) -> None:  # fmt: skip
        """`limits`: where each problem's CPU limit comes from; by default measured through
        this grader (and kept in `timing_cache`, a file, when given). `metrics` counts the
        verdicts of solutions and snippets (not of the timing runs)."""
        self._executor, self.problems, self._config = executor, problems, config
        self._metrics: Metrics = metrics or NoMetrics()
        cache = TimingCache(timing_cache) if timing_cache is not None else None
        self.limits = limits or MeasuredLimits(self._timed, cache)
        # Judging is Python work under the GIL: one thread for it, not one per grading, so
        # the event loop competes with one judge at a time and stays responsive under a flood.
        self._judge = ThreadPoolExecutor(1, thread_name_prefix="judge")

    def close(self) -> None:
        self._judge.shutdown(wait=False)

    def problem(self, problem_id: str) -> Problem | None:
        return self.problems.get(problem_id.strip().lower())

    async def grade(self, problem: Problem, code: str, *, stretch: float = 1.0) -> Grade:
        """Grade `code`; `stretch` multiplies the limit (the proofs that a too-slow solution
        is still running well past it)."""
        limit = await self.limits.of(problem)
        grade = await self._timed(problem, code, limit.seconds * stretch)
        self._metrics.verdict(grade.verdict.value)
        return dataclasses.replace(grade, limit_ms=limit.limit_ms * stretch,
                                   reference_ms=limit.reference_ms)  # fmt: skip

    async def run(self, code: str) -> Grade:
        grade = await self._timed(None, code, self._config.run_time_limit)
        self._metrics.verdict(grade.verdict.value)
        return grade

    async def _timed(self, problem: Problem | None, code: str, seconds: float) -> Grade:
        """Run `code` with `seconds` of CPU: graded on `problem`'s tests, or as a script."""
        c = self._config
        job: dict[str, Any] = {
            "mode": "run", "code": code, "time_limit": seconds,
            "memory_mb": c.run_memory_mb, "output_cap": c.output_cap,
        }  # fmt: skip
        if problem is not None:
            job |= {
                "mode": "grade", "function": problem.function,
                "tests": [case.args_json for case in problem.cases],
                "return_args": problem.wants_args, "banned": list(problem.banned),
                "memory_mb": problem.memory_mb,
            }  # fmt: skip
        raw = await self._executor.run(job, seconds * c.deadline_factor + c.deadline_margin)
        return await asyncio.get_running_loop().run_in_executor(self._judge, judge, problem, raw)
