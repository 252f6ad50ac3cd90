"""Submissions: every graded or run snippet, written before grading starts.

`add` stores the code in state `queued`; `finish` records the verdict and timings. A row
still `queued` at start-up belongs to a grading the bot did not live to finish: `unfinished`
lists them so the composition root can grade them again (or mark them `interrupted`). Each
such attempt is counted in the row before it starts (`attempt`), so a submission that takes
the bot down with it is known at the next start, and one that keeps failing is marked
`failed` instead of being tried forever.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import aiosqlite

from bot.grades import Grade, Verdict
from bot.store.database import fetch_all, fetch_one, transaction
from bot.text.code import valid_unicode
from bot.types import ChannelRef, User


@dataclass(frozen=True, slots=True)
class Submission:
    id: int
    platform: str
    user_id: str
    problem_id: str | None
    code: str
    attempts: int = 0  # gradings started again at start-up
    user_name: str = ""
    workspace: str | None = None
    channel: str | None = None  # where it was sent, when known

    def author(self) -> User:
        return User(self.platform, self.user_id, self.user_name)

    def sent_to(self) -> ChannelRef | None:
        return ChannelRef(self.platform, self.channel, self.workspace) if self.channel else None


@dataclass(frozen=True, slots=True)
class Progress:
    """A user's record: problems solved, and their attempts."""

    solved: tuple[str, ...]
    attempted: tuple[str, ...]
    submissions: int


class SubmissionStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def add(self, user: User, problem_id: str | None, code: str, now: datetime,
                  where: ChannelRef | None = None) -> int:  # fmt: skip
        """Store a submission as queued; `where` it was sent, when known (for boards)."""
        sql = """INSERT INTO submissions (platform, user_id, user_name, problem_id, code, state,
                     created_at, workspace, channel) VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?)"""
        name, code = valid_unicode(user.display_name), valid_unicode(code)  # else SQLite refuses
        params = (user.platform, user.id, name, problem_id, code, now.isoformat(),
                  where.workspace if where else None, where.channel if where else None)  # fmt: skip
        async with transaction(self._db):
            cursor = await self._db.execute(sql, params)
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def finish(self, submission_id: int, grade: Grade, now: datetime) -> None:
        sql = """UPDATE submissions SET state = 'graded', verdict = ?, passed = ?, total = ?,
                     cpu_ms = ?, peak_kb = ?, graded_at = ? WHERE id = ?"""
        params = (grade.verdict.value, grade.passed, len(grade.tests), grade.cpu_ms,
                  grade.peak_kb, now.isoformat(), submission_id)  # fmt: skip
        async with transaction(self._db):
            await self._db.execute(sql, params)

    async def interrupt(self, submission_id: int) -> None:
        async with transaction(self._db):
            await self._db.execute(
                "UPDATE submissions SET state = 'interrupted' WHERE id = ?", (submission_id,)
            )

    async def fail(self, submission_id: int, now: datetime) -> None:
        """Give up on a submission whose grading failed again and again."""
        async with transaction(self._db):
            await self._db.execute("UPDATE submissions SET state = 'failed', graded_at = ? "
                                   "WHERE id = ?", (now.isoformat(), submission_id))  # fmt: skip

    async def unfinished(self) -> list[Submission]:
        rows = await fetch_all(self._db, "SELECT id, platform, user_id, problem_id, code, "
                               "attempts, user_name, workspace, channel FROM submissions "
                               "WHERE state = 'queued' ORDER BY id")  # fmt: skip
        return [Submission(*row) for row in rows]

    async def attempt(self, submission_id: int) -> int:
        """Count one more attempt at grading a leftover submission; returns the count."""
        async with transaction(self._db):
            await self._db.execute("UPDATE submissions SET attempts = attempts + 1 WHERE id = ?",
                                   (submission_id,))  # fmt: skip
            row = await fetch_one(self._db, "SELECT attempts FROM submissions WHERE id = ?",
                                  (submission_id,))  # fmt: skip
        return int(row[0]) if row else 0

    async def give_back(self, submission_id: int) -> None:
        """Uncount an attempt that ended for the bot's reasons (shutdown, sandbox down)."""
        async with transaction(self._db):
            await self._db.execute("UPDATE submissions SET attempts = MAX(attempts - 1, 0) "
                                   "WHERE id = ?", (submission_id,))  # fmt: skip

    async def verdict(self, submission_id: int) -> str | None:
        row = await fetch_one(self._db, "SELECT verdict FROM submissions WHERE id = ?",
                              (submission_id,))  # fmt: skip
        return None if row is None else row[0]

    async def progress(self, user: User) -> Progress:
        sql = """SELECT problem_id, MAX(verdict = ?) FROM submissions
                 WHERE platform = ? AND user_id = ? AND problem_id IS NOT NULL
                 GROUP BY problem_id ORDER BY problem_id"""
        rows = await fetch_all(self._db, sql, (Verdict.ACCEPTED.value, user.platform, user.id))
        # Solutions only: a /run snippet is not a submission.
        count = await fetch_one(self._db, "SELECT COUNT(*) FROM submissions WHERE platform = ? "
                                "AND user_id = ? AND problem_id IS NOT NULL",
                                (user.platform, user.id))  # fmt: skip
        solved = tuple(r[0] for r in rows if r[1])
        attempted = tuple(r[0] for r in rows if not r[1])
        return Progress(solved, attempted, count[0] if count else 0)

    async def solvers(self, problem_id: str) -> int:
        """How many people have solved a problem (shown with its explanation)."""
        row = await fetch_one(self._db, "SELECT COUNT(DISTINCT platform || ':' || user_id) "
                              "FROM submissions WHERE problem_id = ? AND verdict = ?",
                              (problem_id, Verdict.ACCEPTED.value))  # fmt: skip
        return row[0] if row else 0
