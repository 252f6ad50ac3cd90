"""Rows that the stores under test read but do not write themselves (questions, schedules,
daily posts, submissions, hints), inserted through the `Database` boundary with the same SQL
on both engines; and a card's fsrs update that sets when it is due."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from fsrs import Card

from bot.store.db import Database
from bot.types import ChannelRef, User


async def question(db: Database, qid: str, *, topics: tuple[str, ...] = (), kind: str = "qa",
                   retired: bool = False) -> None:  # fmt: skip
    await db.execute(
        "INSERT INTO questions (id, title, kind, difficulty, answer, content_hash, retired) "
        "VALUES (?, ?, ?, 'easy', 'a', 'h', ?)",
        (qid, qid, kind, int(retired)),
    )
    await db.executemany(
        "INSERT INTO question_topics (question_id, topic) VALUES (?, ?)",
        [(qid, topic) for topic in topics],
    )


async def schedule(db: Database, channel: ChannelRef) -> int:
    row = await db.fetch_one(
        "INSERT INTO schedules (platform, workspace, channel, post_time, timezone, days, answer) "
        "VALUES (?, ?, ?, '09:00', 'UTC', 127, '+8h') RETURNING id",
        (channel.platform, channel.workspace or "", channel.channel),
    )
    assert row is not None
    return int(row[0])


async def post(db: Database, schedule_id: int, slot: str, question_id: str, due: datetime, *,
               part: str = "question", message_id: str | None = None) -> None:  # fmt: skip
    await db.execute(
        "INSERT INTO daily_posts (schedule_id, slot, part, question_id, kind, cycle, due_at, "
        "state, nonce, message_id) VALUES (?, ?, ?, ?, 'qa', 1, ?, 'sent', ?, ?)",
        (schedule_id, slot, part, question_id, due.isoformat(), f"n-{slot}-{part}", message_id),
    )


async def submission(db: Database, user: User, problem_id: str, verdict: str, at: datetime, *,
                     workspace: str | None = None, cpu_ms: float | None = None,
                     reference_ms: float | None = None, state: str = "graded") -> None:  # fmt: skip
    await db.execute(
        "INSERT INTO submissions (platform, user_id, user_name, problem_id, code, state, "
        "verdict, cpu_ms, reference_ms, created_at, workspace) "
        "VALUES (?, ?, ?, ?, 'pass', ?, ?, ?, ?, ?, ?)",
        (user.platform, user.id, user.display_name, problem_id, state, verdict, cpu_ms,
         reference_ms, at.isoformat(), workspace),
    )  # fmt: skip


async def hint(db: Database, user: User, problem_id: str, at: datetime) -> None:
    await db.execute(
        "INSERT INTO hints_taken (platform, user_id, problem_id, level, taken_at) "
        "VALUES (?, ?, ?, 1, ?)",
        (user.platform, user.id, problem_id, at.isoformat()),
    )


def due_at(when: datetime) -> Callable[[Card | None], Card]:
    """An fsrs update that sets the card due at `when`."""

    def update(card: Card | None) -> Card:
        return Card(card_id=1, due=when)

    return update
