"""The parent's side of the escape drill: run a file as plain Python in a grading worker.

Operators and the tests use it (`studybot sandbox exec`) to show that the process boundary
holds with the restricted compiler gone. It builds an `exec` job, which nothing in the core
or the adapters can: chat reaches only `Grader.grade` and `Grader.run`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.grading.grader import GraderConfig
from bot.grading.pool import Sandbox


@dataclass(frozen=True, slots=True)
class DrillResult:
    exit: int  # the code's own exit status, or -N when signal N ended the worker
    stdout: str
    stderr: str
    layers: dict[str, str]  # every isolation layer: "" when active, else why not
    ended: str  # how the worker process ended, as the parent saw it

    def as_json(self) -> dict[str, Any]:
        return {"exit": self.exit, "stdout": self.stdout, "stderr": self.stderr,
                "layers": self.layers, "ended": self.ended}  # fmt: skip


async def run_drill(sandbox: Sandbox, code: str) -> DrillResult:
    """Run `code` with a submission's limits (the free-form `run` allowance) and report."""
    config = GraderConfig()
    job = {"mode": "exec", "code": code, "time_limit": config.run_time_limit,
           "memory_mb": config.run_memory_mb, "output_cap": config.output_cap}  # fmt: skip
    raw = await sandbox.run(job, config.run_time_limit + config.deadline_margin)
    layers = sandbox.layers.report if sandbox.layers else {}
    done = _done(raw.lines)
    if done is not None:
        return DrillResult(int(done.get("exit", 0)), str(done.get("stdout", "")),
                           str(done.get("stderr", "")), layers, "reported")  # fmt: skip
    if raw.timed_out:
        return DrillResult(-9, "", "", layers, "killed at the wall-clock deadline")
    end = raw.exit
    if end is not None and end.signal:
        return DrillResult(-end.signal, "", "", layers, f"killed by signal {end.signal}")
    code_ = end.code if end is not None else -1
    return DrillResult(code_, "", "", layers, "ended before reporting")


def _done(lines: list[bytes]) -> dict[str, Any] | None:
    """The harness's own last line, if the worker got to write it."""
    if not lines or not lines[-1].startswith(b'{"event": "done"'):
        return None
    try:
        event = json.loads(lines[-1])
    except ValueError:
        return None
    return event if isinstance(event, dict) else None
