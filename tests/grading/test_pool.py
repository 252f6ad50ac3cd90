"""The sandbox's own life: warm workers, one job each, and a zygote that comes back."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.errors import GradingUnavailable
from bot.grades import Verdict
from bot.grading.grader import Grader
from bot.grading.pool import Feed, Feeder, Sandbox
from bot.grading.problems import Problem
from bot.grading.timing import FixedLimits
from tests.grading.conftest import UNHURRIED, reference
from tests.waiting import PATIENCE, until


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
    """Whether process `pid` is gone within 30 s: a worker exits after its report, or is
    killed EXIT_GRACE later; the margin is for a busy machine, where reaping may lag."""
    for _ in range(1500):
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


class Withheld:
    """The first job's feed holds back its second input until `release` is set: once its
    worker has reported test 0 it waits for test 1's input, so it is provably mid-job
    until then, however fast the machine. Every later job is fed in full (`Feeder`)."""

    def __init__(self) -> None:
        self.waiting = asyncio.Event()  # the first job's worker waits for its second input
        self.release = asyncio.Event()
        self.jobs = 0

    def __call__(self, sock: socket.socket, inputs: list[bytes]) -> Feed:
        self.jobs += 1
        feeder = Feeder(sock, inputs)
        return feeder if self.jobs > 1 else _Held(feeder, self.waiting, self.release)


class _Held:
    def __init__(self, feeder: Feeder, waiting: asyncio.Event, release: asyncio.Event) -> None:
        self._feeder, self._waiting, self._release = feeder, waiting, release

    async def lines(self, lines: list[bytes]) -> None:
        for line in lines:
            if line.startswith(b'{"event": "test"') and not self._release.is_set():
                self._waiting.set()
                await self._release.wait()  # test 1's input is sent only after this
            await self._feeder.lines([line])


@pytest_asyncio.fixture
async def withheld() -> AsyncIterator[tuple[Sandbox, Withheld]]:
    feed = Withheld()
    box = Sandbox(warm=2, feed=feed)
    await box.start()
    yield box, feed
    feed.release.set()
    await box.close()


async def test_a_job_running_when_the_zygote_dies_is_graded_again(
    withheld: tuple[Sandbox, Withheld], problems: dict[str, Problem]
) -> None:
    sandbox, feed = withheld
    # The held job is not cut by a deadline, and it is the submission's own: the limit is
    # given, not measured by jobs of its own through the feed.
    grader = Grader(sandbox, problems, UNHURRIED, limits=FixedLimits())
    code = reference("rotate-matrix")
    running = asyncio.create_task(grader.grade(problems["rotate-matrix"], code))
    await asyncio.wait_for(feed.waiting.wait(), PATIENCE)  # held between tests 0 and 1
    assert sandbox.pid is not None and not running.done()
    os.kill(sandbox.pid, signal.SIGKILL)
    await until(lambda: sandbox.restarts == 1)  # a new zygote took over, the job still held
    feed.release.set()  # the old worker may finish now (if it outlived its zygote): its
    grade = await asyncio.wait_for(running, PATIENCE)  # report is stale, the job runs again
    assert grade.verdict is Verdict.ACCEPTED  # not a crash blamed on the code
    assert sandbox.restarts == 1 and feed.jobs == 2  # run again, on a worker fed in full


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
