"""Schedules and the ledger of daily posts.

The ledger (`daily_posts`) is what makes posting exactly-once: a post is *claimed* by
inserting its row, keyed by (schedule, slot, part), in a transaction before anything is sent.
A second claim of the same key inserts nothing and is refused. The row then records the
platform's message reference once the platform accepted the message, so the answer can be
posted in the question's thread, even after a restart.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import aiosqlite

from bot.schedule.model import AnswerTiming, Cycle, Schedule
from bot.schedule.times import parse_local_time, parse_zone
from bot.store.database import fetch_all, fetch_one, transaction
from bot.types import ChannelRef, Kind, Locale

Part = Literal["question", "answer"]
State = Literal["pending", "sent", "failed"]


@dataclass(frozen=True, slots=True)
class Post:
    """One row of the ledger."""

    schedule_id: int
    slot: str
    part: Part
    question_id: str
    kind: Kind
    cycle: int
    due_at: datetime
    state: State
    attempts: int
    nonce: str
    message_id: str | None


class ScheduleStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    # --- schedules ---------------------------------------------------------------------

    async def save(self, s: Schedule) -> Schedule:
        """Create or replace the schedule of `s.channel` (one per channel); unpauses it."""
        sql = """INSERT INTO schedules (platform, workspace, channel, post_time, timezone, days,
                     coding_days, topic, answer, locale, summary, paused, pause_reason)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL)
                 ON CONFLICT (platform, workspace, channel) DO UPDATE SET
                     post_time = excluded.post_time, timezone = excluded.timezone,
                     days = excluded.days, coding_days = excluded.coding_days,
                     topic = excluded.topic, answer = excluded.answer, locale = excluded.locale,
                     summary = excluded.summary, paused = 0, pause_reason = NULL
                 RETURNING id"""
        c = s.channel
        params = (c.platform, c.workspace or "", c.channel, s.post_at.strftime("%H:%M"),
                  s.zone.key, _mask(s.days), _mask(s.coding_days), s.topic, str(s.answer),
                  s.locale.value, "weekly" if s.weekly_summary else "off")  # fmt: skip
        async with transaction(self._db), self._db.execute(sql, params) as cursor:
            row = await cursor.fetchone()
        assert row is not None  # RETURNING yields the row written
        saved = await self.get(int(row[0]))
        assert saved is not None
        return saved

    async def get(self, schedule_id: int) -> Schedule | None:
        rows = await self._schedules("id = ?", (schedule_id,))
        return rows[0] if rows else None

    async def for_channel(self, channel: ChannelRef) -> Schedule | None:
        where = "platform = ? AND workspace = ? AND channel = ?"
        rows = await self._schedules(where, (channel.platform, channel.workspace or "",
                                             channel.channel))  # fmt: skip
        return rows[0] if rows else None

    async def on_platforms(self, platforms: frozenset[str]) -> list[Schedule]:
        """Every schedule (paused ones too) on the platforms that are connected."""
        marks = ",".join("?" * len(platforms))
        return await self._schedules(f"platform IN ({marks})", tuple(platforms))

    async def in_workspace(self, platform: str, workspace: str | None) -> list[Schedule]:
        """Every schedule of one workspace (or guild), paused ones too."""
        return await self._schedules("platform = ? AND workspace = ?", (platform, workspace or ""))

    async def set_paused(self, schedule_id: int, paused: bool, reason: str | None = None) -> None:
        await self._db.execute(
            "UPDATE schedules SET paused = ?, pause_reason = ? WHERE id = ?",
            (int(paused), reason if paused else None, schedule_id),
        )

    async def remove(self, schedule_id: int) -> None:
        await self._db.execute("DELETE FROM schedules WHERE id = ?", (schedule_id,))

    async def _schedules(self, where: str, params: tuple[object, ...]) -> list[Schedule]:
        sql = f"""SELECT id, platform, workspace, channel, post_time, timezone, days,
                         coding_days, topic, answer, paused, pause_reason, locale, summary
                  FROM schedules WHERE {where} ORDER BY id"""
        return [_schedule(row) for row in await fetch_all(self._db, sql, params)]

    # --- the ledger --------------------------------------------------------------------

    async def claim(self, post: Post) -> bool:
        """Insert `post` as pending; False if its (schedule, slot, part) is already claimed."""
        # One statement is one transaction (autocommit): the claim is atomic on its own.
        return bool(await fetch_all(self._db, f"{_CLAIM} RETURNING 1", _claim_params(post)))

    async def claim_all(self, posts: Sequence[Post]) -> list[Post]:
        """Claim many posts in one transaction; returns the ones this call claimed.

        Inside BEGIN IMMEDIATE no other writer can interleave, so a key that is absent when
        read is inserted by this transaction.
        """
        keys = ",".join("(?, ?, ?)" for _ in posts)
        params = [v for p in posts for v in (p.schedule_id, p.slot, p.part)]
        async with transaction(self._db):
            taken = {
                (int(r[0]), r[1], r[2])
                for r in await fetch_all(
                    self._db,
                    f"""SELECT schedule_id, slot, part FROM daily_posts
                        WHERE (schedule_id, slot, part) IN (VALUES {keys})""",
                    params,
                )
            }
            fresh = [p for p in posts if (p.schedule_id, p.slot, p.part) not in taken]
            await self._db.executemany(_CLAIM, [_claim_params(p) for p in fresh])
        return fresh

    async def mark_all_sent(self, sent: Sequence[tuple[Post, str, datetime]]) -> None:
        """Record that each post was accepted, with the platform's message id."""
        async with transaction(self._db):
            await self._db.executemany(
                """UPDATE daily_posts SET state = 'sent', message_id = ?, sent_at = ?,
                       attempts = attempts + 1, error = NULL
                   WHERE schedule_id = ? AND slot = ? AND part = ?""",
                [(message_id, at.isoformat(), p.schedule_id, p.slot, p.part)
                 for p, message_id, at in sent],
            )  # fmt: skip

    async def mark_attempt(self, post: Post, error: str, *, final: bool) -> int:
        """Count a failed attempt; `final` gives the post up. Returns the attempts so far."""
        row = await fetch_one(
            self._db,
            """UPDATE daily_posts SET attempts = attempts + 1, error = ?,
                   state = CASE WHEN ? THEN 'failed' ELSE state END
               WHERE schedule_id = ? AND slot = ? AND part = ? RETURNING attempts""",
            (error, final, post.schedule_id, post.slot, post.part),
        )
        return int(row[0]) if row else 0

    async def pending(self) -> list[Post]:
        """Posts claimed but not confirmed sent: left over by a crash or a failed attempt."""
        return await self._posts("state = 'pending'", ())

    async def unanswered(self) -> list[Post]:
        """Questions that were sent and whose answer has not been claimed yet."""
        return await self._posts(
            """part = 'question' AND state = 'sent' AND NOT EXISTS (
                   SELECT 1 FROM daily_posts a WHERE a.schedule_id = daily_posts.schedule_id
                   AND a.slot = daily_posts.slot AND a.part = 'answer')""",
            (),
        )

    async def question_post(self, schedule_id: int, slot: str) -> Post | None:
        rows = await self._posts(
            "schedule_id = ? AND slot = ? AND part = 'question'", (schedule_id, slot)
        )
        return rows[0] if rows else None

    async def answer_claimed(self, schedule_id: int, slot: str) -> bool:
        """Whether the answer of this question post is posted or on its way: its quiz is
        closed from that moment."""
        row = await fetch_one(
            self._db,
            "SELECT 1 FROM daily_posts WHERE schedule_id = ? AND slot = ? AND part = 'answer'",
            (schedule_id, slot),
        )
        return row is not None

    async def last_question_dues(self) -> dict[int, datetime]:
        """Each schedule's latest question slot (instants are stored in UTC, so max works)."""
        found = await fetch_all(
            self._db,
            "SELECT schedule_id, max(due_at) FROM daily_posts WHERE part = 'question' "
            "GROUP BY schedule_id",
        )
        return {int(row[0]): datetime.fromisoformat(row[1]) for row in found}

    async def current_cycles(self, schedule_ids: Collection[int]) -> dict[tuple[int, Kind], Cycle]:
        """For each schedule and kind: its latest cycle, what it asked and what it asked last.

        One query for any number of schedules: a minute in which a thousand channels are due
        reads them all at once instead of a thousand times. The ledger is the memory, so a
        restart of the bot changes nothing.
        """
        marks = ",".join("?" * len(schedule_ids))
        rows = await fetch_all(
            self._db,
            f"""SELECT schedule_id, kind, cycle, question_id FROM daily_posts d
                WHERE part = 'question' AND schedule_id IN ({marks}) AND cycle = (
                    SELECT max(cycle) FROM daily_posts m WHERE m.schedule_id = d.schedule_id
                    AND m.part = 'question' AND m.kind = d.kind)
                ORDER BY due_at""",
            tuple(schedule_ids),
        )
        asked: dict[tuple[int, Kind], tuple[int, list[str]]] = {}
        for schedule_id, kind, cycle, question_id in rows:
            asked.setdefault((int(schedule_id), Kind(kind)), (int(cycle), []))[1].append(
                str(question_id)
            )
        return {key: Cycle(n, frozenset(ids), ids[-1]) for key, (n, ids) in asked.items()}

    async def starts_cycle(self, post: Post) -> bool:
        """Whether `post` is the first question of a new round (not of the first one)."""
        if post.cycle == 0:
            return False
        row = await fetch_one(
            self._db,
            """SELECT 1 FROM daily_posts WHERE schedule_id = ? AND part = 'question'
                  AND kind = ? AND cycle = ? AND due_at < ? LIMIT 1""",
            (post.schedule_id, post.kind.value, post.cycle, post.due_at.isoformat()),
        )
        return row is None

    async def _posts(self, where: str, params: tuple[object, ...]) -> list[Post]:
        sql = f"""SELECT schedule_id, slot, part, question_id, kind, cycle, due_at, state,
                         attempts, nonce, message_id
                  FROM daily_posts WHERE {where} ORDER BY due_at"""
        return [
            Post(r[0], r[1], r[2], r[3], Kind(r[4]), r[5], datetime.fromisoformat(r[6]),
                 r[7], r[8], r[9], r[10])
            for r in await fetch_all(self._db, sql, params)
        ]  # fmt: skip


_CLAIM = """INSERT INTO daily_posts (schedule_id, slot, part, question_id, kind, cycle,
                 due_at, state, nonce)
             VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?)
             ON CONFLICT DO NOTHING"""


def _claim_params(p: Post) -> tuple[object, ...]:
    return (p.schedule_id, p.slot, p.part, p.question_id, p.kind.value, p.cycle,
            p.due_at.isoformat(), p.nonce)  # fmt: skip


def _mask(days: frozenset[int]) -> int:
    return sum(1 << d for d in days)


def _days(mask: int) -> frozenset[int]:
    return frozenset(d for d in range(7) if mask >> d & 1)


def _schedule(row: aiosqlite.Row) -> Schedule:
    return Schedule(
        id=int(row[0]),
        channel=ChannelRef(row[1], row[3], row[2] or None),
        post_at=parse_local_time(row[4]), zone=parse_zone(row[5]),
        days=_days(row[6]), coding_days=_days(row[7]), topic=row[8],
        answer=AnswerTiming.parse(row[9]), paused=bool(row[10]), pause_reason=row[11],
        locale=Locale(row[12]), weekly_summary=row[13] == "weekly",
    )  # fmt: skip
