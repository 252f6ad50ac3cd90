"""Start-up recovery against one poisoned submission, through a real SQLite file: the others are
graded, the poisoned one is counted, and after failing twice (across restarts) it is marked
`failed` and never blocks a start again. And text from outside (lone surrogates) is stored."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.errors import GradingUnavailable
from bot.grades import Verdict
from bot.grading.admission import Admission
from bot.grading.grader import Grader
from bot.grading.problems import Problem
from bot.grading.service import Grading, Recovery
from bot.grading.timing import FixedLimits
from bot.store.database import fetch_all, open_database
from bot.store.db import SqliteDatabase
from bot.store.migrations import MIGRATIONS
from bot.store.submissions import SubmissionStore
from bot.types import Locale, User
from tests.fakes import FakeClock
from tests.grading.playback import Playback, report

ALICE = User("console", "alice", "Alice")
POISON = "def my_pow(x, n): return poison"


def worker(problems: dict[str, Problem], poison: Exception) -> Callable[[dict[str, Any]], bytes]:
    """A worker that answers every fast-power test right, except for the poisoned code."""

    def answer(job: dict[str, Any]) -> bytes:
        if job["code"] == POISON:
            raise poison
        cases = problems["fast-power"].cases
        return report({"event": "compiled", "notes": []},
                      *({"event": "test", "i": i, "status": "ok", "value": c.expected}
                        for i, c in enumerate(cases)),
                      {"event": "done", "output": "", "dropped": 0})  # fmt: skip

    return answer


@asynccontextmanager
async def started(path: Path, problems: dict[str, Problem],
                  poison: Exception) -> AsyncIterator[tuple[Grading, Playback]]:  # fmt: skip
    """One start of the bot's grading over the database file at `path`."""
    clock = FakeClock()
    playback = Playback(worker(problems, poison))
    grader = Grader(playback, problems, limits=FixedLimits())
    async with open_database(path) as db:
        try:
            yield (
                Grading(grader, Admission(clock), SubmissionStore(SqliteDatabase(db)), clock),
                playback,
            )
        finally:
            grader.close()


async def states(path: Path) -> list[tuple[Any, ...]]:
    async with open_database(path) as db:
        rows = await fetch_all(db, "SELECT code, state, verdict, attempts FROM submissions "
                               "ORDER BY id")  # fmt: skip
    return [tuple(r) for r in rows]


async def queue(path: Path, problems: dict[str, Problem], *codes: str) -> None:
    async with started(path, problems, RuntimeError()) as (grading, _):
        for code in codes:
            await grading.submissions.add(ALICE, "fast-power", code, FakeClock().now())


async def test_one_poisoned_row_is_counted_then_failed_and_the_rest_are_graded(
    tmp_path: Path, problems: dict[str, Problem]
) -> None:
    path, poison = tmp_path / "bot.sqlite3", RuntimeError("the sandbox choked on this one")
    await queue(path, problems, "def my_pow(x, n): return 1", POISON, "def my_pow(x, n): return 2")
    async with started(path, problems, poison) as (grading, _):
        assert await grading.recover() == Recovery(graded=2, errors=1)
    assert await states(path) == [
        ("def my_pow(x, n): return 1", "graded", "accepted", 1),
        (POISON, "queued", None, 1),  # tried once: the next start tries again
        ("def my_pow(x, n): return 2", "graded", "accepted", 1),
    ]
    async with started(path, problems, poison) as (grading, _):  # a restart
        assert await grading.recover() == Recovery(failed=1)
    assert (await states(path))[1] == (POISON, "failed", None, 2)
    async with started(path, problems, poison) as (grading, playback):
        assert await grading.recover() == Recovery()
        assert playback.jobs == []


async def test_a_row_that_took_two_starts_down_is_failed_without_running(
    tmp_path: Path, problems: dict[str, Problem]
) -> None:
    path = tmp_path / "bot.sqlite3"
    await queue(path, problems, POISON, "def my_pow(x, n): return 1")
    for _ in range(2):  # two starts that died while grading it: counted, never finished
        async with started(path, problems, RuntimeError()) as (grading, _):
            await grading.submissions.attempt(1)
    async with started(path, problems, RuntimeError()) as (grading, playback):
        assert await grading.recover() == Recovery(graded=1, failed=1)
        assert [job["code"] for job in playback.jobs] == ["def my_pow(x, n): return 1"]
    assert [s[1] for s in await states(path)] == ["failed", "graded"]


async def test_an_unavailable_sandbox_is_not_held_against_the_code(
    tmp_path: Path, problems: dict[str, Problem]
) -> None:
    path = tmp_path / "bot.sqlite3"
    await queue(path, problems, POISON)
    for _ in range(3):
        async with started(path, problems, GradingUnavailable("sandbox down")) as (grading, _):
            assert await grading.recover() == Recovery(errors=1)
    assert await states(path) == [(POISON, "queued", None, 0)]


async def test_submissions_of_an_older_database_keep_their_rows(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    with sqlite3.connect(path) as raw:  # a database as studybot left it at schema v3
        for script in MIGRATIONS[:3]:
            raw.executescript(script)
        raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        raw.executemany("INSERT INTO schema_version VALUES (?)", [(1,), (2,), (3,)])
        raw.execute("INSERT INTO submissions (id, platform, user_id, user_name, problem_id, code, "
                    "state, created_at) VALUES (7, 'console', 'alice', 'Alice', 'fast-power', "
                    "'x = 1', 'queued', '2026-01-05T09:00:00+00:00')")  # fmt: skip
    raw.close()
    async with open_database(path) as db:
        (left,) = await SubmissionStore(SqliteDatabase(db)).unfinished()
    assert (left.id, left.code, left.attempts) == (7, "x = 1", 0)


async def test_lone_surrogates_in_a_submission_are_stored_and_graded(
    tmp_path: Path, problems: dict[str, Problem]
) -> None:
    path = tmp_path / "bot.sqlite3"
    mallory = User("discord", "9", "Mal\ud800lory")  # as a JSON "\ud800" escape decodes
    async with started(path, problems, RuntimeError()) as (grading, playback):
        grade = await grading.submit(mallory, Locale.EN, problems["fast-power"],
                                     "def my_pow(x, n): return 1  # \udfff")  # fmt: skip
        assert grade.verdict is Verdict.ACCEPTED
        assert playback.jobs[0]["code"].endswith("# \ufffd")
    async with open_database(path) as db:
        rows = await fetch_all(db, "SELECT user_name, code FROM submissions")
    assert tuple(rows[0]) == ("Mal\ufffdlory", "def my_pow(x, n): return 1  # \ufffd")
