"""Reads for a member's progress and a workspace's scores, across the learning tables.

Reads only: the activity ledger, review cards and submissions are written by their own
stores. Nothing here needs grading to be running: solved problems are read from the
submissions table, whoever graded them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import aiosqlite

from bot.grades import Verdict
from bot.store.database import fetch_all, fetch_one
from bot.store.submissions import Progress, SubmissionStore
from bot.types import User


@dataclass(frozen=True, slots=True)
class MemberScore:
    """One member's line of a workspace's scores."""

    user_id: str
    name: str
    points: int
    answered: int  # quizzes answered
    right: int  # of those, right
    solved: int  # problems solved (distinct)


class ProgressStore:
    def __init__(self, db: aiosqlite.Connection, submissions: SubmissionStore) -> None:
        self._db = db
        self._submissions = submissions

    async def problems(self, user: User) -> Progress:
        """The problems `user` solved and attempted, and how many solutions they sent."""
        return await self._submissions.progress(user)

    async def due(self, user: User, now: datetime) -> int:
        """How many of `user`'s review cards are due at `now` (an index range: cards_due)."""
        row = await fetch_one(
            self._db,
            "SELECT count(*) FROM cards WHERE platform = ? AND user_id = ? AND due <= ?",
            (user.platform, user.id, now.isoformat()),
        )
        return int(row[0]) if row else 0

    async def scores(self, platform: str, workspace: str) -> list[MemberScore]:
        """Every member with activity in the workspace, most points first (then by name)."""
        rows = await fetch_all(self._db, _SCORES, (Verdict.ACCEPTED.value, platform, workspace))
        return [
            MemberScore(str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]))
            for r in rows
        ]


# One pass over the workspace's ledger per part: `board` (the name is the one of the member's
# latest act: a bare column beside SQLite's max()), then the problems solved, from the ledger
# (this workspace) or from submissions where grading recorded them.
_SCORES = """
    WITH board AS (
        SELECT user_id, user_name, max(at), sum(points) AS points,
               sum(kind = 'quiz') AS answered, sum(kind = 'quiz' AND correct) AS right
          FROM activity WHERE platform = ?2 AND workspace = ?3 GROUP BY user_id),
    solved AS (
        SELECT user_id, count(DISTINCT question_id) AS n FROM (
            SELECT user_id, question_id FROM activity
             WHERE platform = ?2 AND workspace = ?3 AND kind = 'solve' AND correct
            UNION
            SELECT user_id, problem_id FROM submissions
             WHERE platform = ?2 AND verdict = ?1 AND coalesce(workspace, ?3) = ?3
               AND user_id IN (SELECT user_id FROM board))
         GROUP BY user_id)
    SELECT b.user_id, b.user_name, b.points, b.answered, b.right, coalesce(s.n, 0)
      FROM board b LEFT JOIN solved s ON s.user_id = b.user_id
     ORDER BY b.points DESC, b.user_name, b.user_id"""
