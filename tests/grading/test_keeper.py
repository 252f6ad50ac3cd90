"""What a worker uses is the kernel's word, through its keeper, never the worker's own.

These solutions run as plain Python (`Escaped` adds `plain` to every job at the executor's
boundary, as `studybot sandbox exec --problem` does): exactly what a solution has once it has
escaped the restricted layer. They patch `time` and `resource` in their own process, switch
off the harness's own time check, and forge their report. A grade's CPU time and peak memory
must still be what the kernel counted, and the CPU limit must still stop them at their budget,
to the millisecond rather than at the kernel's whole-second backstop.

All figures here are CPU time, which a busy or slow machine does not stretch.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.grades import RawRun, Verdict
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import Problem
from bot.grading.timing import FixedLimits
from tests.fakes import REPO
from tests.grading.conftest import UNHURRIED, reference
from tests.grading.dying_bot import JOB, Watch, family
from tests.waiting import PATIENCE, until

in_sandbox = pytest.mark.asyncio(loop_scope="module")

# The keeper stops a worker at its budget to the wake-up latency of one process; beside busy
# processes that may be a time slice or two. The kernel's backstop is a whole second later.
OVERSHOOT_MS = 150.0
FORGE = """
import resource as _resource, time as _time

_clock = _time.process_time
_zero = _resource.struct_rusage((0.0, 0.0) + (0,) * 14)
_time.process_time = lambda: 0.0
_time.process_time_ns = lambda: 0
_resource.getrusage = lambda *_: _zero
"""
SPIN_MS = 60


class Escaped:
    """The sandbox as the executor, with every job plain Python: the restricted layer gone."""

    def __init__(self, sandbox: Sandbox) -> None:
        self._sandbox = sandbox

    async def run(self, job: dict[str, Any], deadline: float) -> RawRun:
        return await self._sandbox.run(job | {"plain": True}, deadline)


@pytest.fixture(scope="module")
def escaped(sandbox: Sandbox, problems: dict[str, Problem]) -> Grader:
    return Grader(Escaped(sandbox), problems, UNHURRIED, limits=FixedLimits())


@in_sandbox
async def test_forged_usage_is_replaced_by_the_kernels(
    escaped: Grader, problems: dict[str, Problem]
) -> None:
    """A right answer that spins 60 ms of real CPU per test, then reports zero CPU and zero
    memory (the harness's figures come from the functions it patched): the grade says what
    the kernel counted."""
    problem = problems["fast-power"]
    code = (
        reference("fast-power")
        + FORGE
        + f"""
_right = my_pow

def my_pow(x, n):
    start = _clock()
    while _clock() - start < {SPIN_MS / 1000}:
        pass
    return _right(x, n)
"""
    )
    grade = await escaped.grade(problem, code, stretch=40)  # room for every test's spin
    assert grade.verdict is Verdict.ACCEPTED, grade
    assert grade.cpu_ms is not None and grade.cpu_ms >= SPIN_MS * len(problem.cases)
    assert grade.peak_kb is not None and grade.peak_kb > 10_000  # an interpreter's worth


@in_sandbox
async def test_a_switched_off_time_check_still_meets_its_budget(
    escaped: Grader, problems: dict[str, Problem]
) -> None:
    """Each test spins a little; the harness's own check between tests reads the patched
    clock and never fires. The keeper stops the run at its limit, not a second later."""
    problem = problems["fast-power"]
    code = (
        reference("fast-power")
        + FORGE
        + """
_right = my_pow

def my_pow(x, n):
    start = _clock()
    while _clock() - start < 0.2:
        pass
    return _right(x, n)
"""
    )
    grade = await escaped.grade(problem, code)
    assert grade.verdict is Verdict.TIME_LIMIT_EXCEEDED, grade
    assert grade.limit_ms is not None and grade.cpu_ms is not None
    assert grade.limit_ms <= grade.cpu_ms <= grade.limit_ms + OVERSHOOT_MS


@in_sandbox
async def test_one_endless_test_is_stopped_at_the_budget(
    sandbox: Sandbox, problems: dict[str, Problem]
) -> None:
    """An ordinary restricted solution that never returns: the harness cannot look at the
    clock between tests, and the kernel's CPU limit is in whole seconds; the keeper is not."""
    grader = Grader(sandbox, problems, UNHURRIED, limits=FixedLimits())
    grade = await grader.grade(problems["fast-power"], "def my_pow(x, n):\n    while True:\n"
                                                       "        pass\n")  # fmt: skip
    assert grade.verdict is Verdict.TIME_LIMIT_EXCEEDED
    assert grade.tests[0].verdict is Verdict.TIME_LIMIT_EXCEEDED
    assert grade.limit_ms is not None and grade.cpu_ms is not None
    assert grade.limit_ms <= grade.cpu_ms <= grade.limit_ms + OVERSHOOT_MS


@in_sandbox
async def test_a_forged_report_gains_nothing(escaped: Grader,
                                             problems: dict[str, Problem]) -> None:  # fmt: skip
    """The worker writes its own report, every test passed in no time, then spins: the
    kernel says the run went past its budget, so it did not pass within its limit."""
    problem = problems["fast-power"]
    lines = [{"event": "compiled", "notes": []}]
    lines += [{"event": "test", "i": i, "status": "ok", "value": c.expected, "cpu_ms": 0.0}
              for i, c in enumerate(problem.cases)]  # fmt: skip
    lines += [{"event": "done", "output": "", "dropped": 0, "cpu_ms": 0.0, "maxrss_kb": 0}]
    code = f"""
import json, os
_report = {lines!r}
os.write(0, "".join(json.dumps(e) + "\\n" for e in _report).encode())
while True:
    pass
"""
    grade = await escaped.grade(problem, code)
    assert grade.verdict is Verdict.TIME_LIMIT_EXCEEDED, grade
    assert grade.limit_ms is not None and grade.cpu_ms is not None
    assert grade.cpu_ms >= grade.limit_ms


NOBODY = 65534


def _can_run_as(uid: int) -> str:
    """Why a bot process cannot run as `uid` here ("" if it can): it must be root to switch,
    and the interpreter must be reachable for that user."""
    if os.geteuid() != 0:
        return "only root can start a process as another user"
    try:
        subprocess.run([sys.executable, "-c", "pass"], check=True, timeout=PATIENCE,
                       capture_output=True, user=uid, group=uid, extra_groups=[])  # fmt: skip
    except (OSError, subprocess.SubprocessError) as exc:
        return f"this interpreter is not reachable for uid {uid} ({exc})"
    return ""


@pytest.mark.parametrize("user", ["this user", "nobody"])
async def test_a_hung_worker_dies_with_its_bot(user: str) -> None:
    """A worker that reports in full, closes its socket and blocks for ever (no CPU: no limit
    ends it) is gone when its bot process is killed: the zygote dies with the bot, each keeper
    with the zygote, each worker with its keeper. As root the keeper changes its user and
    enters a user namespace, which clear the parent-death request it must make again."""
    args = [sys.executable, "-m", "tests.grading.dying_bot"]
    if user == "nobody":
        if why := _can_run_as(NOBODY):
            pytest.skip(why)
        args.append(str(NOBODY))
    done = await asyncio.to_thread(subprocess.run, args, cwd=REPO, capture_output=True,
                                   text=True, timeout=PATIENCE)  # fmt: skip
    assert done.returncode == -signal.SIGKILL, done.stderr
    pids = json.loads(done.stdout)
    assert len(pids) >= 3  # the zygote, a keeper and its worker at least
    await until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in pids))


async def test_closing_with_a_hung_worker_is_quiet_and_leaves_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The bot shutting down while a worker hangs after its report: no error is logged, and
    the zygote's whole family is gone."""
    watch = Watch.reported = asyncio.Event()
    box = Sandbox(warm=1, feed=Watch)
    await box.start()
    assert box.pid is not None
    running = asyncio.create_task(box.run(JOB, 3600))
    await watch.wait()
    pids = [box.pid, *family(box.pid)]
    await box.close()
    running.cancel()
    await asyncio.gather(running, return_exceptions=True)
    await until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in pids))
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
