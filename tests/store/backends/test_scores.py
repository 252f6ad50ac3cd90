"""What scoring reads besides the ledger, on both engines: the open daily post a solution
answers, hints taken, earlier solves, and a daily post's solvers."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from bot.store.activity import Act, ActivityStore, ActKind
from bot.store.db import Database
from bot.store.scores import OpenPost, ScoreStore
from bot.types import ChannelRef, User
from tests.store.backends import rows

ALICE = User("test", "u-alice", "Alice")
BOB = User("test", "u-bob", "Bob")
CHANNEL = ChannelRef("test", "c-1", "w-1")
NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


async def test_a_solution_answers_the_newest_open_post(backend: Database) -> None:
    await rows.question(backend, "p1", kind="coding")
    schedule = await rows.schedule(backend, CHANNEL)
    await rows.post(backend, schedule, "d1", "p1", NOW - timedelta(days=1), message_id="m1")
    await rows.post(backend, schedule, "d2", "p1", NOW, message_id="m2")
    scores = ScoreStore(backend)
    newest = OpenPost(schedule, "d2", NOW, CHANNEL)
    earlier = OpenPost(schedule, "d1", NOW - timedelta(days=1), CHANNEL)
    assert await scores.open_post(CHANNEL, "p1") == newest
    thread = ChannelRef("test", "m1", "w-1")  # Discord names a post's thread by its message
    assert await scores.open_post(thread, "p1") == earlier
    await rows.post(backend, schedule, "d2", "p1", NOW + timedelta(hours=8), part="answer")
    assert await scores.open_post(CHANNEL, "p1") == earlier  # d2's answer is out: closed
    assert await scores.open_post(CHANNEL, "p2") is None
    assert await scores.open_post(ChannelRef("test", "c-1", "w-2"), "p1") is None


async def test_hints_earlier_solves_and_a_posts_solvers(backend: Database) -> None:
    scores = ScoreStore(backend)
    await rows.hint(backend, ALICE, "p1", NOW)
    assert await scores.hinted(ALICE, "p1")
    assert not await scores.hinted(ALICE, "p2")
    assert not await scores.hinted(BOB, "p1")
    ledger = ActivityStore(backend)
    for user, dedupe in ((ALICE, "daily:7:d1:test:a"), (BOB, "daily:7:d1:test:b"),
                         (ALICE, "daily:7:d10:test:a"), (BOB, "solve:p1:b")):  # fmt: skip
        await ledger.record(Act(ActKind.SOLVE, user, CHANNEL, "p1", True, 30, NOW,
                                date(2026, 3, 1), dedupe))  # fmt: skip
    await ledger.record(Act(ActKind.QUIZ, ALICE, CHANNEL, "q1", True, 10, NOW, date(2026, 3, 1),
                            "daily:7:d1:test:quiz"))  # fmt: skip
    assert await scores.solved_before(ALICE, "p1")
    assert not await scores.solved_before(ALICE, "q1")  # a quiz is no solve
    assert not await scores.solved_before(ALICE, "p2")
    assert await scores.daily_solvers("daily:7:d1:") == 2
    assert await scores.daily_solvers("daily:7:d10:") == 1
    assert await scores.daily_solvers("daily:8:") == 0
