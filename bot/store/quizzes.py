"""Members' answers to the quick check of a daily post: one row per member per post.

The primary key (schedule, slot, platform, member) is what makes an answer count once: a
second click, a replayed interaction or a button pressed twice in a race all meet it, and
`record` says the answer was there already instead of changing it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.quiz import Tally
from bot.store.db import Database
from bot.types import User


@dataclass(frozen=True, slots=True)
class Answer:
    choice: int  # the option's index in the file, not the letter its post showed it under
    correct: bool


class QuizStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def record(self, schedule_id: int, slot: str, user: User, answer: Answer,
                     at: datetime) -> Answer | None:  # fmt: skip
        """Store the member's answer; if they had answered already, return that one (and
        change nothing)."""
        inserted = await self._db.fetch_all(  # one statement, so one transaction (autocommit)
            """INSERT INTO quiz_answers (schedule_id, slot, platform, user_id, choice, correct,
                                         answered_at)
               VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1""",
            (schedule_id, slot, user.platform, user.id, answer.choice, int(answer.correct),
             at.isoformat()),
        )  # fmt: skip
        return None if inserted else await self.answer_of(schedule_id, slot, user)

    async def answer_of(self, schedule_id: int, slot: str, user: User) -> Answer | None:
        row = await self._db.fetch_one(
            """SELECT choice, correct FROM quiz_answers WHERE schedule_id = ? AND slot = ?
               AND platform = ? AND user_id = ?""",
            (schedule_id, slot, user.platform, user.id),
        )
        return Answer(int(row[0]), bool(row[1])) if row else None

    async def tally(self, schedule_id: int, slot: str) -> Tally:
        row = await self._db.fetch_one(
            "SELECT count(*), coalesce(sum(correct), 0) FROM quiz_answers "
            "WHERE schedule_id = ? AND slot = ?",
            (schedule_id, slot),
        )
        return Tally(int(row[0]), int(row[1])) if row else Tally()
