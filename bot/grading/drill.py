"""The parent's side of the escape drill: run a file as plain Python in a grading worker.

Operators and the tests use it (`studybot sandbox exec`) to show that the process boundary
holds with the restricted compiler gone. It builds an `exec` job, which nothing in the core
or the adapters can: chat reaches only `Grader.grade` and `Grader.run`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.grading.grader import GraderConfig
from bot.grading.judge import decode
from bot.grading.pool import Sandbox, reported_in_full
from bot.grading.problems import Problem
from bot.grading.timing import FixedLimits, TimeLimit


@dataclass(frozen=True, slots=True)
class DrillResult:
    exit: int  # the code's own exit status, or -N when signal N ended the worker
    stdout: str
    stderr: str
    layers: dict[str, str]  # every isolation layer: "" when active, else why not
    ended: str  # how the worker process ended, as the parent saw it
    tests: tuple[dict[str, Any], ...] = ()  # with a problem: each test's event

    def as_json(self) -> dict[str, Any]:
        """The result as JSON; each layer as `{"active": true}` or `{"active": false, "why":
        ...}` (an empty string for "on" reads as "nothing" to anyone but this code)."""
        layers = {name: {"active": True} if not why else {"active": False, "why": why}
                  for name, why in self.layers.items()}  # fmt: skip
        return {"exit": self.exit, "stdout": self.stdout, "stderr": self.stderr,
                "layers": layers, "ended": self.ended, "tests": list(self.tests)}  # fmt: skip


async def run_drill(sandbox: Sandbox, code: str, problem: Problem | None = None) -> DrillResult:
    """Run `code` with a submission's limits and report (a problem's time limit as its rule
    gives it on a standard machine: the drill is about escapes, not speed).

    Without a problem, the file is a script (the free-form `run` allowance). With one, it
    is graded as a solution would be, unrestricted: its function is called on each of the
    problem's tests, whose inputs reach the worker one at a time, and each test's event
    (the function's return value, or its error) is reported."""
    config = GraderConfig()
    job = _job(code, problem, config, await FixedLimits().of(problem) if problem else None)
    deadline = float(job["time_limit"]) + config.deadline_margin  # (a hang ends soon)
    raw = await sandbox.run(job, deadline)
    layers = sandbox.layers.report if sandbox.layers else {}
    events = decode(raw.lines)
    tests = tuple(e for e in events if e.get("event") == "test")
    last = events[-1] if events and reported_in_full(raw) else {}
    done = last if last.get("event") == "done" else None
    if done is not None:  # the worker's own words: any type, any size
        stdout = str(done.get("stdout", done.get("output", "")))  # a script's, or a solution's
        return DrillResult(_exit_code(done.get("exit", 0)), stdout, str(done.get("stderr", "")),
                           layers, "reported", tests)  # fmt: skip
    if raw.timed_out:
        return DrillResult(-9, "", "", layers, "killed at the wall-clock deadline")
    end = raw.exit
    if end is not None and end.signal:
        return DrillResult(-end.signal, "", "", layers, f"killed by signal {end.signal}")
    code_ = end.code if end is not None else -1
    return DrillResult(code_, "", "", layers, "ended before reporting")


def _exit_code(value: object) -> int:
    """The reported exit status if it is one (an int of a process's range), else -1."""
    return value if type(value) is int and -255 <= value <= 255 else -1


def _job(code: str, problem: Problem | None, config: GraderConfig,
         limit: TimeLimit | None) -> dict[str, Any]:  # fmt: skip
    if problem is None or limit is None:
        return {"mode": "exec", "code": code, "time_limit": config.run_time_limit,
                "memory_mb": config.run_memory_mb, "output_cap": config.output_cap}  # fmt: skip
    return {"mode": "grade", "plain": True, "code": code, "function": problem.function,
            "tests": [c.args_json for c in problem.cases], "time_limit": limit.seconds,
            "memory_mb": problem.memory_mb, "output_cap": config.output_cap}  # fmt: skip
