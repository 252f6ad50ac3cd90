"""What the grading-queue tests share: settings on a throwaway database, a bot process's
grading over it, `studybot grader` as real subprocesses, and reads of the queue's state."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import psycopg
import pytest

from bot.app import open_queued_grading
from bot.grades import Grade
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import Problem
from bot.grading.queue import PATIENCE, apply_schema
from bot.grading.service import Grading
from bot.grading.shared_admission import SharedAdmissionConfig
from bot.ports import Clock
from bot.settings import Settings
from bot.store.postgres.database import open_postgres
from tests import waiting
from tests.fakes import REPO

# A dead grader's jobs come back in ~5-6 s; a live one beats every 0.5 s, so ten beats must
# go missing before it is taken for dead (two, at the former 2 s, a busy machine can miss).
FAST = ("--heartbeat", "0.5", "--stalled-after", "5")


def queue_settings(dsn: str, cache: Path) -> Settings:
    return Settings.load({"STUDYBOT_DATABASE": dsn, "STUDYBOT_CONTENT_DIR": str(REPO / "content"),
                          "STUDYBOT_CACHE_DIR": str(cache)}, env_file=None)  # fmt: skip


@asynccontextmanager
async def bot_process(
    settings: Settings,
    clock: Clock,
    limits: SharedAdmissionConfig | None = None,
    patience: float = PATIENCE,
) -> AsyncIterator[Grading]:
    """One bot process's grading, as `open_app` will wire it on PostgreSQL: its own pool,
    its own listening connection."""
    assert settings.postgres is not None
    dsn = settings.postgres.reveal()
    async with (
        open_postgres(dsn, max_size=8) as pool,
        open_queued_grading(
            pool, dsn, settings, clock, limits=limits, patience=patience
        ) as grading,
    ):
        yield grading


class Graders:
    """`studybot grader` processes, each in its own process group (its sandbox's zygote
    and workers with it), killed with SIGKILL or stopped with SIGTERM."""

    def __init__(self, dsn: str, cache: Path) -> None:
        self._env = {
            **os.environ,
            "STUDYBOT_DATABASE": dsn,
            "STUDYBOT_CACHE_DIR": str(cache),
            "STUDYBOT_CONTENT_DIR": str(REPO / "content"),
            "STUDYBOT_LOG_LEVEL": "WARNING",
        }
        self._dsn = dsn
        self.running: list[asyncio.subprocess.Process] = []

    async def start(self, *extra: str) -> asyncio.subprocess.Process:
        """A grader, once it has registered as a procrastinate worker."""
        async with open_postgres(self._dsn, max_size=1) as pool:
            await apply_schema(pool)  # what the grader would do, so its workers can be counted
        before = await self.workers()
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "grader", *FAST, *extra, env=self._env, cwd=REPO,
            start_new_session=True,
        )  # fmt: skip
        self.running.append(process)
        for _ in range(600):
            if await self.workers() > before:
                return process
            assert process.returncode is None, "the grader exited at start"
            await asyncio.sleep(0.05)
        raise AssertionError("the grader did not register within 30 s")

    async def kill(self, process: asyncio.subprocess.Process) -> None:
        os.killpg(process.pid, signal.SIGKILL)
        await process.wait()

    async def stop_all(self) -> None:
        for process in self.running:
            if process.returncode is None:
                process.terminate()  # the grader stops its sandbox itself
        for process in self.running:
            try:
                await asyncio.wait_for(process.wait(), 10)
            except TimeoutError:
                os.killpg(process.pid, signal.SIGKILL)
                await process.wait()

    async def workers(self) -> int:
        """The newest worker's id (ids only grow; rows of dead workers get pruned)."""
        sql = "SELECT coalesce(max(id), 0) FROM procrastinate_workers"
        return int(await scalar(self._dsn, sql))


async def scalar(dsn: str, sql: str, params: tuple[object, ...] = ()) -> object:
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        row = await (await conn.execute(sql.encode(), params)).fetchone()
    assert row is not None
    return row[0]


async def until(dsn: str, sql: str, params: tuple[object, ...] = (),
                within: float = waiting.PATIENCE) -> None:  # fmt: skip
    """Wait (reading every 50 ms) until `sql`'s one value is true; fail after `within` s."""
    deadline = asyncio.get_running_loop().time() + within
    while not await scalar(dsn, sql, params):
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"not true within {within} s: {sql}")
        await asyncio.sleep(0.05)  # paces the reads: the condition decides, not the time


def timeless(grade: Grade) -> Grade:
    """A Grade without what differs from one run or grader to the next (CPU time, peak
    memory, and the limit each grader measured for itself)."""
    tests = tuple(dataclasses.replace(t, cpu_ms=None) for t in grade.tests)
    return dataclasses.replace(grade, tests=tests, cpu_ms=None, peak_kb=None, limit_ms=None,
                               reference_ms=None)  # fmt: skip


@pytest.fixture
async def grader(problems: dict[str, Problem]) -> AsyncIterator[Grader]:
    """In-process grading, as with SQLite, in the test's own loop (the suite's shared
    `grader` lives in a module-scoped loop; the queue's fixtures are per test)."""
    box = Sandbox(warm=1)
    await box.start()
    here = Grader(box, problems)
    yield here
    here.close()
    await box.close()
