"""The `/question` pick on both engines: unseen first, then due for review, then the one
seen longest ago, never the one seen last unless nothing else matches; and every way of
having seen a question counts."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

from bot.store.activity import Act, ActivityStore, ActKind
from bot.store.cards import CardStore, Source
from bot.store.db import Database
from bot.store.seen import SeenStore
from bot.types import ChannelRef, Kind, User
from tests.store.backends import rows

ALICE = User("test", "u-alice", "Alice")
NOW = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)
LIVE = ("q1", "q2", "q3", "q4")
SEEDS = range(12)  # random starting points: before, between and after the seen questions


async def _bank(db: Database) -> None:
    for i, qid in enumerate(LIVE):
        await rows.question(db, qid, topics=("gpu" if i < 2 else "os",))
    await rows.question(db, "q0", topics=("gpu",), retired=True)
    await rows.question(db, "p1", topics=("os",), kind="coding")


async def _picks(seen: SeenStore, user: User = ALICE, *, kind: Kind | None = None,
                 topic: str | None = None) -> set[str | None]:  # fmt: skip
    """What `user` is given over a dozen random starting points."""
    return {await seen.pick(user, random.Random(s), NOW, kind=kind, topic=topic) for s in SEEDS}


async def _card(db: Database, qid: str, due: datetime) -> None:
    await CardStore(db).review(ALICE, qid, 3, Source.QUIZ, NOW, rows.due_at(due))


async def test_unseen_then_due_then_oldest_never_the_last(backend: Database) -> None:
    await _bank(backend)
    seen = SeenStore(backend)
    assert await _picks(seen) == {"q1", "q2", "q3", "q4", "p1"}  # over seeds: all live, no q0
    for i, qid in enumerate(("q2", "q4", "p1", "q1")):
        await seen.record(ALICE, qid, NOW - timedelta(hours=10 - i))
    assert await _picks(seen) == {"q3"}  # the only unseen one, wherever the walk starts
    await seen.record(ALICE, "q3", NOW)  # now everything is seen; q3 last
    assert await _picks(seen) == {"q2"}  # the one seen longest ago
    await _card(backend, "q4", NOW + timedelta(days=1))  # carded, not yet due
    assert await _picks(seen) == {"q2"}
    await _card(backend, "q1", NOW - timedelta(minutes=1))  # due for review
    assert await _picks(seen) == {"q1"}
    await _card(backend, "q3", NOW - timedelta(days=1))  # due, but seen last
    assert await _picks(seen) == {"q1"}
    await seen.record(ALICE, "q2", NOW + timedelta(seconds=1))  # the latest showing is kept
    await seen.record(ALICE, "q1", NOW + timedelta(seconds=2))
    assert await _picks(seen) == {"q3"}  # q1 is the last seen now; q3 is due


async def test_filters_and_the_last_seen_when_nothing_else_matches(backend: Database) -> None:
    await _bank(backend)
    seen = SeenStore(backend)
    assert await _picks(seen, topic="gpu") == {"q1", "q2"}
    assert await _picks(seen, kind=Kind.CODING) == {"p1"}
    await seen.record(ALICE, "p1", NOW)
    assert await _picks(seen, kind=Kind.CODING) == {"p1"}  # seen last, but the only one
    assert await _picks(seen, topic="nothing") == {None}


async def test_answers_reveals_and_quiz_answers_count_as_seen(backend: Database) -> None:
    await _bank(backend)
    channel = ChannelRef("test", "c-1", "w-1")
    await backend.execute(
        "INSERT INTO answer_reveals (platform, user_id, question_id, revealed_at) "
        "VALUES (?, ?, 'q1', ?)",
        (ALICE.platform, ALICE.id, NOW.isoformat()),
    )
    await ActivityStore(backend).record(Act(ActKind.REVIEW, ALICE, channel, "q2", True, 0, NOW,
                                            date(2026, 3, 1), "review:1"))  # fmt: skip
    schedule = await rows.schedule(backend, channel)
    await rows.post(backend, schedule, "2026-03-01", "q3", NOW)
    await backend.execute(
        "INSERT INTO quiz_answers (schedule_id, slot, platform, user_id, choice, correct, "
        "answered_at) VALUES (?, '2026-03-01', ?, ?, 1, 1, ?)",
        (schedule, ALICE.platform, ALICE.id, NOW.isoformat()),
    )
    await _card(backend, "p1", NOW + timedelta(days=3))
    seen = SeenStore(backend)
    assert await _picks(seen) == {"q4"}
    assert await _picks(seen, User("test", "u-bob", "Bob")) == {"q1", "q2", "q3", "q4", "p1"}
