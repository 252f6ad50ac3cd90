"""What scoring reads besides the ledger itself: the daily coding post a solution answers,
whether a hint came first, and how many solved a day's problem before its answer.

A solution answers a daily coding post when it is submitted in that post's channel, or in
the post's thread (Discord names a thread started on a message by the message's id), while
the post's answer is not yet claimed: the quiz of that day is still open.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.store.db import Database
from bot.types import ChannelRef, User


@dataclass(frozen=True, slots=True)
class OpenPost:
    """A daily coding post still open for solutions."""

    schedule_id: int
    slot: str
    posted: datetime  # when it went out (when it was due, for rows from before that was kept)
    channel: ChannelRef  # the schedule's channel


class ScoreStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def open_post(self, where: ChannelRef, problem_id: str) -> OpenPost | None:
        """The newest open daily post of `problem_id` that a solution sent `where` answers."""
        rows = await self._db.fetch_all(
            """SELECT d.schedule_id, d.slot, coalesce(d.sent_at, d.due_at), s.channel
               FROM schedules s
               JOIN daily_posts d ON d.schedule_id = s.id AND d.part = 'question'
               WHERE s.platform = ? AND s.workspace = ? AND d.state = 'sent'
                 AND d.question_id = ?
                 AND (s.channel = ? OR d.message_id = ?)
                 AND NOT EXISTS (SELECT 1 FROM daily_posts a WHERE a.schedule_id = d.schedule_id
                                 AND a.slot = d.slot AND a.part = 'answer')
               ORDER BY d.due_at DESC LIMIT 1""",
            (where.platform, where.workspace or "", problem_id, where.channel, where.channel),
        )
        if not rows:
            return None
        r = rows[0]
        channel = ChannelRef(where.platform, str(r[3]), where.workspace)
        return OpenPost(int(r[0]), str(r[1]), datetime.fromisoformat(r[2]), channel)

    async def hinted(self, user: User, problem_id: str) -> bool:
        """Whether `user` has taken any hint of `problem_id` (before now, so before a solve)."""
        row = await self._db.fetch_one(
            "SELECT 1 FROM hints_taken WHERE platform = ? AND user_id = ? AND problem_id = ?",
            (user.platform, user.id, problem_id),
        )
        return row is not None

    async def solved_before(self, user: User, problem_id: str) -> bool:
        """Whether a solve of `problem_id` by `user` is on the ledger already."""
        row = await self._db.fetch_one(
            """SELECT 1 FROM activity WHERE platform = ? AND user_id = ? AND kind = 'solve'
               AND question_id = ? LIMIT 1""",
            (user.platform, user.id, problem_id),
        )
        return row is not None

    async def daily_solvers(self, dedupe_prefix: str) -> int:
        """How many solve acts carry a dedupe key starting with `dedupe_prefix` (a range on
        the key's unique index: one daily post's solvers)."""
        row = await self._db.fetch_one(
            "SELECT count(*) FROM activity WHERE dedupe >= ? AND dedupe < ? AND kind = 'solve'",
            (dedupe_prefix, dedupe_prefix + "\U0010ffff"),
        )
        return int(row[0]) if row else 0
