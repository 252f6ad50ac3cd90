"""The activity ledger: every act that scores or keeps a streak, one row each.

An act is a quiz answered, a problem solved or a review rated. Its `dedupe` key names the
act itself (`quiz:<schedule>:<slot>:<platform>:<member>`), and the table keeps it unique, so
a replayed interaction or a retried write records nothing twice and scores nothing twice.
`day` is the member's local date when they acted, decided by the caller (bot/learning).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import UTC, date, datetime

from bot.store.db import Database
from bot.types import ChannelRef, User


class ActKind(enum.StrEnum):
    QUIZ = "quiz"
    SOLVE = "solve"
    REVIEW = "review"


@dataclass(frozen=True, slots=True)
class Act:
    kind: ActKind
    user: User
    channel: ChannelRef
    question_id: str
    correct: bool
    points: int
    at: datetime  # UTC
    day: date  # the member's local date at `at`
    dedupe: str
    hinted: bool = False


@dataclass(frozen=True, slots=True)
class TopicRecord:
    topic: str
    answered: int
    right: int


class ActivityStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def record(self, act: Act) -> bool:
        """Store `act`; False (and nothing changed) if that act was recorded already."""
        inserted = await self._db.fetch_all(
            """INSERT INTO activity (platform, workspace, channel, user_id, user_name, kind,
                                     question_id, correct, points, hinted, at, day, dedupe)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (dedupe) DO NOTHING RETURNING 1""",
            (act.user.platform, act.channel.workspace or "", act.channel.channel, act.user.id,
             act.user.display_name, act.kind.value, act.question_id, int(act.correct),
             act.points, int(act.hinted), act.at.isoformat(), act.day.isoformat(), act.dedupe),
        )  # fmt: skip
        return bool(inserted)

    async def days(self, user: User) -> set[date]:
        """The local dates on which `user` did anything that counts."""
        rows = await self._db.fetch_all(
            "SELECT DISTINCT day FROM activity WHERE platform = ? AND user_id = ?",
            (user.platform, user.id),
        )
        return {date.fromisoformat(r[0]) for r in rows}

    async def per_day(self, user: User, since: date) -> dict[date, int]:
        """How many acts `user` did on each of their local days from `since` on."""
        rows = await self._db.fetch_all(
            """SELECT day, count(*) FROM activity WHERE platform = ? AND user_id = ?
               AND day >= ? GROUP BY day""",
            (user.platform, user.id, since.isoformat()),
        )
        return {date.fromisoformat(r[0]): int(r[1]) for r in rows}

    async def in_channel(self, channel: ChannelRef, start: datetime,
                         end: datetime) -> list[tuple[datetime, bool]]:  # fmt: skip
        """When each quick check in `channel` was answered from `start` to `end`, and whether
        right: the points of a week's chart."""
        rows = await self._db.fetch_all(
            """SELECT at, correct FROM activity WHERE platform = ? AND workspace = ?
               AND channel = ? AND at >= ? AND at < ? AND kind = 'quiz'""",
            (channel.platform, channel.workspace or "", channel.channel,
             start.astimezone(UTC).isoformat(), end.astimezone(UTC).isoformat()),
        )  # fmt: skip
        return [(datetime.fromisoformat(r[0]), bool(r[1])) for r in rows]

    async def points(self, user: User, workspace: str | None = None) -> int:
        """`user`'s points, in one workspace or (None) everywhere."""
        sql = "SELECT coalesce(sum(points), 0) FROM activity WHERE platform = ? AND user_id = ?"
        params: tuple[object, ...] = (user.platform, user.id)
        if workspace is not None:
            sql, params = sql + " AND workspace = ?", (*params, workspace)
        row = await self._db.fetch_one(sql, params)
        return int(row[0]) if row else 0

    async def by_topic(self, user: User) -> list[TopicRecord]:
        """Quiz answers and reviews of `user` per topic of their questions, most answered first."""
        rows = await self._db.fetch_all(
            """SELECT t.topic, count(*), sum(a.correct) FROM activity a
               JOIN question_topics t ON t.question_id = a.question_id
               WHERE a.platform = ? AND a.user_id = ? AND a.kind IN ('quiz', 'review')
               GROUP BY t.topic ORDER BY count(*) DESC, t.topic""",
            (user.platform, user.id),
        )
        return [TopicRecord(str(r[0]), int(r[1]), int(r[2])) for r in rows]
