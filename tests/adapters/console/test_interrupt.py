"""Ctrl-C in the console: `studybot console` as a process in a process group of its own,
interrupted as a terminal does it (SIGINT to the whole group, the grading sandbox included)
at the prompt, during start-up and while a `/run` is grading. Each ends in one line, status
130, no traceback; the next start says in words what it did with the interrupted run."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from tests.e2e.process import WAIT, Run, _read, bot_env

CLOCK = "2026-01-05T08:00:00+00:00*1"
STOPPED = "Interrupted: studybot stopped."


@asynccontextmanager
async def console(database: Path, *args: str) -> AsyncIterator[Run]:
    """`studybot console`, leading a process group as a shell's foreground job does."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "console", *args, cwd=database.parent,
        env=bot_env(database, CLOCK), stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, process_group=0,
    )  # fmt: skip
    run = Run(process)
    readers = [asyncio.create_task(_read(process.stdout, run.out, run.changed)),
               asyncio.create_task(_read(process.stderr, run.err, run.changed))]  # fmt: skip
    try:
        yield run
    finally:
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)
            await process.wait()
        await asyncio.gather(*readers)


async def ctrl_c(run: Run) -> int:
    """What a terminal does on Ctrl-C: SIGINT to the foreground group; the exit status."""
    os.killpg(run.process.pid, signal.SIGINT)
    async with asyncio.timeout(WAIT):
        return await run.process.wait()


def assert_left_cleanly(run: Run, status: int, words: str = STOPPED) -> None:
    log = "".join(run.err)
    assert status == 130, log
    assert "Traceback" not in log + "".join(run.out), log
    assert log.rstrip().endswith(words), log


async def test_ctrl_c_at_the_prompt_ends_the_console_in_one_line(tmp_path: Path) -> None:
    async with console(tmp_path / "bot.sqlite3") as run:
        await run.wait_log("grading sandbox ready")  # the sandbox's processes are up too
        run.type("/topics")
        await run.wait_out("└")  # answered: the console waits at its prompt
        assert_left_cleanly(run, await ctrl_c(run))


async def test_ctrl_c_during_start_up_ends_it_in_one_line_in_the_members_language(
    tmp_path: Path,
) -> None:
    async with console(tmp_path / "bot.sqlite3", "--locale", "zh") as run:
        await run.wait_log("test clock: starting at")  # the first thing start-up does
        assert_left_cleanly(run, await ctrl_c(run), "已中断：studybot 已退出。")


async def test_ctrl_c_while_a_run_is_grading_and_the_next_start_says_what_became_of_it(
    tmp_path: Path,
) -> None:
    database = tmp_path / "bot.sqlite3"
    async with console(database) as run:
        run.type("/run ```python\nwhile True:\n    pass\n```")
        await run.wait_log("grading sandbox ready")
        await asyncio.wait_for(_stored(database), WAIT)  # taken for grading
        assert_left_cleanly(run, await ctrl_c(run))
        assert "Run:" not in "".join(run.out)  # no verdict was printed
    async with console(database) as again:
        await again.wait_log("submissions left unfinished by the last run: 1 graded again")
        assert "Recovery(" not in "".join(again.err)
        assert_left_cleanly(again, await ctrl_c(again))


async def _stored(database: Path) -> None:
    """Until the console's submission is in the database (it is stored, then graded)."""
    while True:  # a look every 50 ms: how long it takes decides nothing
        if await asyncio.to_thread(_has_submission, database):
            return
        await asyncio.sleep(0.05)


def _has_submission(database: Path) -> bool:
    if not database.exists():
        return False
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        return "submissions" in tables and bool(db.execute("SELECT 1 FROM submissions").fetchall())
