"""The console on PostgreSQL grades in process: one member at a terminal needs no `studybot
grader` running. A chat member's submission queued for the graders stays theirs: the
console's start grades again only the console's own unfinished ones."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from bot.store.postgres.database import open_postgres
from bot.store.postgres.db import PostgresDatabase
from bot.store.submissions import SubmissionStore
from bot.types import User
from tests.adapters.console.test_console import studybot

ROTATE = (
    "/submit rotate-matrix ```python\n"
    "def rotate(matrix):\n"
    "    matrix.reverse()\n"
    "    for i in range(len(matrix)):\n"
    "        for j in range(i):\n"
    "            matrix[i][j], matrix[j][i] = matrix[j][i], matrix[i][j]\n"
    "```\n"
)


async def _queued(dsn: str, platform: str) -> int:
    """A submission left queued by `platform`'s member; its id."""
    async with open_postgres(dsn, max_size=1) as pool:
        store = SubmissionStore(PostgresDatabase(pool))
        return await store.add(User(platform, "42", "kim"), "rotate-matrix", "def rotate(m): ...",
                               datetime(2026, 1, 1, tzinfo=UTC))  # fmt: skip


async def _state(dsn: str, submission_id: int) -> str | None:
    async with open_postgres(dsn, max_size=1) as pool:
        found = await SubmissionStore(PostgresDatabase(pool)).outcome(submission_id)
        return found.state if found else None


def test_the_console_grades_in_process_on_postgresql(postgres_dsn: str, tmp_path: Path) -> None:
    theirs = asyncio.run(_queued(postgres_dsn, "discord"))
    mine = asyncio.run(_queued(postgres_dsn, "console"))
    result = studybot(["console"], ROTATE + "/me\n", tmp_path, STUDYBOT_DATABASE=postgres_dsn)
    assert result.returncode == 0, result.stderr
    assert "┌ ✅ Accepted: Rotate a matrix" in result.stdout
    assert "waits" not in result.stdout and "already being graded" not in result.stdout
    assert "Solved: `rotate-matrix`" in result.stdout
    assert asyncio.run(_state(postgres_dsn, theirs)) == "queued"  # the graders' to grade
    assert asyncio.run(_state(postgres_dsn, mine)) == "graded"  # the console's own, again
