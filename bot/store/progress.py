"""Reads for a member's progress and a workspace's scores, across the learning tables.

Reads only: the activity ledger, review cards and submissions are written by their own
stores. Nothing here needs grading to be running: solved problems are read from the
submissions table, whoever graded them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.grades import Verdict
from bot.store.db import Database
from bot.store.submissions import Progress
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


class Solutions(Protocol):
    """Where a member's solutions are kept (`SubmissionStore`)."""

    async def progress(self, user: User) -> Progress: ...


class ProgressStore:
    def __init__(self, db: Database, submissions: Solutions) -> None:
        self._db = db
        self._submissions = submissions

    async def problems(self, user: User) -> Progress:
        """The problems `user` solved and attempted, and how many solutions they sent."""
        return await self._submissions.progress(user)

    async def due(self, user: User, now: datetime) -> int:
        """How many of `user`'s review cards are due at `now` (an index range: cards_due)."""
        row = await self._db.fetch_one(
            "SELECT count(*) FROM cards WHERE platform = ? AND user_id = ? AND due <= ?",
            (user.platform, user.id, now.isoformat()),
        )
        return int(row[0]) if row else 0

    async def scores(self, platform: str, workspace: str) -> list[MemberScore]:
        """Every member with activity in the workspace, most points first (then by name)."""
        here, ok = (platform, workspace), Verdict.ACCEPTED.value
        rows = await self._db.fetch_all(_SCORES, (*here, *here, platform, ok, workspace, workspace))
        return [
            MemberScore(str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]))
            for r in rows
        ]


# One pass over the workspace's ledger per part: `board`, then the problems solved, from the
# ledger (this workspace) or from submissions where grading recorded them. A member's name is
# the one their newest ledger row was recorded with (the name the bot saw last), read back by
# primary key: SQLite's bare column beside max(at), which took the name of the latest act
# by time, has no PostgreSQL twin, and a portable `max(at || id)` cost a third more here.
# The two differ only for an act scored after a later one (start-up recovery) with the
# member renamed in between. Parameters, in order: platform and workspace (board), platform
# and workspace (solves), platform, accepted verdict, workspace twice (submissions).
_SCORES = """
    WITH board AS (
        SELECT user_id, max(id) AS newest, sum(points) AS points,
               sum(CASE WHEN kind = 'quiz' THEN 1 ELSE 0 END) AS answered,
               sum(CASE WHEN kind = 'quiz' AND correct = 1 THEN 1 ELSE 0 END) AS answered_right
          FROM activity WHERE platform = ? AND workspace = ? GROUP BY user_id),
    solved AS (
        SELECT user_id, count(DISTINCT question_id) AS n FROM (
            SELECT user_id, question_id FROM activity
             WHERE platform = ? AND workspace = ? AND kind = 'solve' AND correct = 1
            UNION
            SELECT user_id, problem_id FROM submissions
             WHERE platform = ? AND verdict = ? AND coalesce(workspace, ?) = ?
               AND user_id IN (SELECT user_id FROM board)) AS solves
         GROUP BY user_id)
    SELECT b.user_id, a.user_name, b.points, b.answered, b.answered_right, coalesce(s.n, 0)
      FROM board b
      JOIN activity a ON a.id = b.newest
      LEFT JOIN solved s ON s.user_id = b.user_id
     ORDER BY b.points DESC, a.user_name, b.user_id"""
