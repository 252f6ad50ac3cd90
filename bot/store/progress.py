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


# The name is the latest the member acted under; problems solved count accepted solutions in
# the activity ledger (this workspace) or in submissions, where grading recorded them.
_SCORES = """
    SELECT a.user_id,
           (SELECT user_name FROM activity n WHERE n.platform = a.platform
              AND n.workspace = a.workspace AND n.user_id = a.user_id ORDER BY n.at DESC LIMIT 1),
           sum(a.points),
           sum(a.kind = 'quiz'),
           sum(a.kind = 'quiz' AND a.correct),
           (SELECT count(DISTINCT question_id) FROM (
                SELECT question_id FROM activity s WHERE s.platform = a.platform
                   AND s.workspace = a.workspace AND s.user_id = a.user_id
                   AND s.kind = 'solve' AND s.correct
                UNION
                SELECT problem_id FROM submissions u WHERE u.platform = a.platform
                   AND u.user_id = a.user_id AND u.verdict = ?1
                   AND coalesce(u.workspace, a.workspace) = a.workspace))
      FROM activity a
     WHERE a.platform = ?2 AND a.workspace = ?3
     GROUP BY a.user_id
     ORDER BY sum(a.points) DESC, 2, a.user_id"""
