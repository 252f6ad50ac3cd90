"""A member's progress and a workspace's scores on both engines."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from bot.store.activity import Act, ActivityStore, ActKind
from bot.store.cards import CardStore, Source
from bot.store.db import Database
from bot.store.progress import MemberScore, ProgressStore
from bot.store.submissions import Progress
from bot.types import ChannelRef, User
from tests.store.backends import rows
from tests.store.backends.rows import due_at

ALICE = User("test", "u-alice", "Alice")
BOB = User("test", "u-bob", "Bob")
DAVE = User("test", "u-dave", "Dave")
HERE = ChannelRef("test", "c-1", "w-1")
THERE = ChannelRef("test", "c-9", "w-2")
NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


class Solutions:
    """The solutions kept elsewhere (`SubmissionStore`): a fixed record."""

    async def progress(self, user: User) -> Progress:
        return Progress(("p1",), ("p1", "p2"), 3)


async def _act(db: Database, user: User, kind: ActKind, qid: str, *, correct: bool = True,
               points: int = 10, hours: int = 0, where: ChannelRef = HERE) -> None:  # fmt: skip
    at, dedupe = NOW + timedelta(hours=hours), f"{user.id}:{qid}:{hours}:{kind}"
    await ActivityStore(db).record(Act(kind, user, where, qid, correct, points, at,
                                       date(2026, 3, 1), dedupe))  # fmt: skip


async def test_a_workspace_scores_every_member_once(backend: Database) -> None:
    await _act(backend, ALICE, ActKind.QUIZ, "q1", hours=1)
    await _act(backend, ALICE, ActKind.QUIZ, "q2", correct=False, points=0, hours=2)
    renamed = User(ALICE.platform, ALICE.id, "Alice B.")
    await _act(backend, renamed, ActKind.SOLVE, "p1", points=30, hours=3)
    await _act(backend, ALICE, ActKind.SOLVE, "p9", points=20, hours=-5, where=THERE)
    await _act(backend, BOB, ActKind.QUIZ, "q1")
    await _act(backend, DAVE, ActKind.QUIZ, "q1")
    await _act(backend, DAVE, ActKind.SOLVE, "p3", correct=False, points=0)
    await rows.submission(backend, BOB, "p2", "accepted", NOW)  # in private: counts anywhere
    await rows.submission(backend, BOB, "p2", "accepted", NOW, workspace="w-1")
    await rows.submission(backend, BOB, "p3", "accepted", NOW, workspace="w-2")
    await rows.submission(backend, BOB, "p4", "wrong_answer", NOW, workspace="w-1")
    progress = ProgressStore(backend, Solutions())
    assert await progress.scores("test", "w-1") == [
        MemberScore("u-alice", "Alice B.", 40, 2, 1, 1),  # the name recorded last
        MemberScore("u-bob", "Bob", 10, 1, 1, 1),
        MemberScore("u-dave", "Dave", 10, 1, 1, 0),  # ties: by name
    ]
    assert await progress.scores("test", "w-3") == []


async def test_reviews_due_and_problems(backend: Database) -> None:
    cards = CardStore(backend)
    for qid, days in (("q1", -2), ("q2", 0), ("q3", 1)):
        await cards.review(ALICE, qid, 3, Source.QUIZ, NOW, due_at(NOW + timedelta(days=days)))
    progress = ProgressStore(backend, Solutions())
    assert await progress.due(ALICE, NOW) == 2
    assert await progress.due(ALICE, NOW + timedelta(days=2)) == 3
    assert await progress.due(BOB, NOW) == 0
    assert await progress.problems(ALICE) == Progress(("p1",), ("p1", "p2"), 3)
