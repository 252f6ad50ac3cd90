"""The grader: turns (problem, code) into a job, runs it on an Executor, judges the report.

The Executor port (bot/ports.py) is the sandbox in production and an in-process runner in
the benchmark's "no isolation" floor. The wall-clock deadline given to the executor is the
problem's CPU limit plus a margin for start-up and reporting; CPU is limited again inside.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from bot.grades import Grade
from bot.grading.judge import judge
from bot.grading.problems import Problem
from bot.ports import Executor


@dataclass(frozen=True, slots=True)
class GraderConfig:
    output_cap: int = 4000  # characters of printed output kept
    run_time_limit: float = 2.0  # CPU seconds for a free-form `run`
    run_memory_mb: int = 128
    deadline_margin: float = 1.5  # wall seconds on top of the CPU limit


class Grader:
    def __init__(self, executor: Executor, problems: dict[str, Problem],
                 config: GraderConfig = GraderConfig()) -> None:  # fmt: skip
        self._executor, self.problems, self._config = executor, problems, config
        # Judging is Python work under the GIL: one thread for it, not one per grading, so
        # the event loop competes with one judge at a time and stays responsive under a flood.
        self._judge = ThreadPoolExecutor(1, thread_name_prefix="judge")

    def close(self) -> None:
        self._judge.shutdown(wait=False)

    def problem(self, problem_id: str) -> Problem | None:
        return self.problems.get(problem_id.strip().lower())

    async def grade(self, problem: Problem, code: str) -> Grade:
        job = {
            "mode": "grade", "code": code, "function": problem.function,
            "tests": [c.args_json for c in problem.cases], "return_args": problem.wants_args,
            "banned": list(problem.banned), "time_limit": problem.time_limit,
            "memory_mb": problem.memory_mb, "output_cap": self._config.output_cap,
        }  # fmt: skip
        raw = await self._executor.run(job, problem.time_limit + self._config.deadline_margin)
        return await asyncio.get_running_loop().run_in_executor(self._judge, judge, problem, raw)

    async def run(self, code: str) -> Grade:
        c = self._config
        job: dict[str, Any] = {
            "mode": "run", "code": code, "time_limit": c.run_time_limit,
            "memory_mb": c.run_memory_mb, "output_cap": c.output_cap,
        }  # fmt: skip
        raw = await self._executor.run(job, c.run_time_limit + c.deadline_margin)
        return await asyncio.get_running_loop().run_in_executor(self._judge, judge, None, raw)
