"""The sandbox's own life: warm workers, one job each, and a zygote that comes back."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.errors import GradingUnavailable
from bot.grades import Verdict
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import Problem
from tests.grading.conftest import reference


@pytest_asyncio.fixture
async def sandbox() -> AsyncIterator[Sandbox]:
    box = Sandbox(warm=2)
    await box.start()
    yield box
    await box.close()


async def test_every_job_gets_a_fresh_worker_that_then_exits(sandbox: Sandbox) -> None:
    job = {"mode": "run", "code": "print(1)", "time_limit": 1, "memory_mb": 64,
           "output_cap": 100}  # fmt: skip
    runs = [await sandbox.run(job, 5) for _ in range(3)]
    pids = [run.worker for run in runs]
    assert None not in pids and len(set(pids)) == 3
    for pid in pids:
        assert await gone(pid)


async def gone(pid: int) -> bool:
    """Whether process `pid` is gone within two seconds (a worker exits after its report)."""
    for _ in range(100):
        if not await asyncio.to_thread(Path(f"/proc/{pid}").exists):
            return True
        await asyncio.sleep(0.02)
    return False


async def test_a_killed_zygote_is_replaced_and_grading_goes_on(
    sandbox: Sandbox, problems: dict[str, Problem], caplog: pytest.LogCaptureFixture
) -> None:
    grader = Grader(sandbox, problems)
    first = sandbox.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    grade = await asyncio.wait_for(grader.grade(problems["fast-power"], reference("fast-power")),
                                   timeout=30)  # fmt: skip
    assert grade.verdict is Verdict.ACCEPTED
    assert sandbox.pid != first and sandbox.restarts == 1
    assert "the grading zygote stopped; starting a new one" in caplog.text


async def test_a_job_running_when_the_zygote_dies_is_graded_again(
    sandbox: Sandbox, problems: dict[str, Problem]
) -> None:
    grader = Grader(sandbox, problems)
    code = reference("rotate-matrix")
    running = asyncio.create_task(grader.grade(problems["rotate-matrix"], code))
    await asyncio.sleep(0.05)  # the worker is on the 200 x 200 tests
    assert sandbox.pid is not None
    os.kill(sandbox.pid, signal.SIGKILL)
    grade = await asyncio.wait_for(running, timeout=30)
    assert grade.verdict is Verdict.ACCEPTED  # not a crash blamed on the code
    assert sandbox.restarts == 1


async def test_a_sandbox_that_cannot_come_back_says_so(
    sandbox: Sandbox, problems: dict[str, Problem], monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.grading.pool as pool

    def broken(control_fd: int, disabled: str) -> None:
        raise OSError("no more processes")

    monkeypatch.setattr(pool, "_spawn_zygote", broken)
    assert sandbox.pid is not None
    os.kill(sandbox.pid, signal.SIGKILL)
    with pytest.raises(GradingUnavailable, match="could not restart: no more processes"):
        await asyncio.wait_for(Grader(sandbox, problems).run("print(1)"), timeout=30)
