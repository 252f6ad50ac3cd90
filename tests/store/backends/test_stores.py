"""The stores on the Database boundary, each behaviour asserted once and run on both
engines: preferences, the activity ledger, quiz answers, and a member's data forgotten."""

from __future__ import annotations

from datetime import UTC, date, datetime

from bot.quiz import Tally
from bot.store.activity import Act, ActivityStore, ActKind, TopicRecord
from bot.store.db import Database
from bot.store.members import ANONYMISED, PERSONAL, MemberData
from bot.store.preferences import DEFAULT_RETENTION, MemberPrefs, Preferences
from bot.store.quizzes import Answer, QuizStore
from bot.types import ChannelRef, User

ALICE = User("test", "u-alice", "Alice")
BOB = User("test", "u-bob", "Bob")
CHANNEL = ChannelRef("test", "c-1", "w-1")
AT = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


def _act(user: User = ALICE, *, dedupe: str = "quiz:1:a", question: str = "q1",
         correct: bool = True, points: int = 3, kind: ActKind = ActKind.QUIZ,
         day: date = date(2026, 3, 1), channel: ChannelRef = CHANNEL) -> Act:  # fmt: skip
    return Act(kind, user, channel, question, correct, points, AT, day, dedupe)


async def test_member_preferences_are_set_one_field_at_a_time(backend: Database) -> None:
    prefs = Preferences(backend)
    assert await prefs.member(ALICE) == MemberPrefs()
    await prefs.set_timezone(ALICE, "Asia/Shanghai")
    await prefs.set_due_digest(ALICE, True)
    await prefs.set_digest_day(ALICE, "2026-03-01")
    assert await prefs.member(ALICE) == MemberPrefs("Asia/Shanghai", True, "2026-03-01")
    await prefs.set_timezone(ALICE, None)
    assert await prefs.member(ALICE) == MemberPrefs(None, True, "2026-03-01")
    await prefs.set_due_digest(BOB, False)
    assert await prefs.digest_members("test") == [
        ("u-alice", MemberPrefs(None, True, "2026-03-01"))
    ]
    assert await prefs.digest_members("other") == []


async def test_a_workspace_retention_defaults_until_set(backend: Database) -> None:
    prefs = Preferences(backend)
    assert await prefs.retention("test", "w-1") == DEFAULT_RETENTION
    await prefs.set_retention("test", "w-1", 0.85)
    await prefs.set_retention("test", "w-1", 0.8)
    await prefs.set_retention("test", None, 0.95)
    assert await prefs.retention("test", "w-1") == 0.8
    assert await prefs.retention("test", None) == 0.95
    assert await prefs.retention("test", "w-2") == DEFAULT_RETENTION


async def test_an_act_is_recorded_once_and_scores_once(backend: Database) -> None:
    ledger = ActivityStore(backend)
    assert await ledger.record(_act())
    assert not await ledger.record(_act(points=100))  # a replay: nothing changes
    other = ChannelRef("test", "c-9", "w-2")
    assert await ledger.record(_act(dedupe="solve:x", points=10, kind=ActKind.SOLVE,
                                    day=date(2026, 3, 2), channel=other))  # fmt: skip
    assert await ledger.record(_act(BOB, dedupe="quiz:1:b"))
    assert await ledger.points(ALICE) == 13
    assert await ledger.points(ALICE, "w-1") == 3
    assert await ledger.points(ALICE, "w-none") == 0
    assert await ledger.days(ALICE) == {date(2026, 3, 1), date(2026, 3, 2)}
    assert await ledger.days(User("test", "nobody", "N")) == set()


async def test_answers_are_counted_per_topic(backend: Database) -> None:
    for qid, topics in (("q1", ("gpu", "memory")), ("q2", ("gpu",))):
        await backend.execute(
            "INSERT INTO questions (id, title, kind, difficulty, answer, content_hash) "
            "VALUES (?, ?, 'qa', 'easy', 'a', 'h')",
            (qid, qid),
        )
        await backend.executemany(
            "INSERT INTO question_topics (question_id, topic) VALUES (?, ?)",
            [(qid, t) for t in topics],
        )
    ledger = ActivityStore(backend)
    await ledger.record(_act(dedupe="1", question="q1", correct=True))
    await ledger.record(_act(dedupe="2", question="q2", correct=False, points=0))
    await ledger.record(_act(dedupe="3", question="q2", kind=ActKind.REVIEW))
    await ledger.record(_act(dedupe="4", question="q1", kind=ActKind.SOLVE))  # not counted
    assert await ledger.by_topic(ALICE) == [TopicRecord("gpu", 3, 2), TopicRecord("memory", 1, 1)]


async def test_a_quiz_answer_counts_once(backend: Database) -> None:
    quizzes = QuizStore(backend)
    assert await quizzes.tally(7, "2026-03-01T09:00") == Tally()
    assert await quizzes.record(7, "2026-03-01T09:00", ALICE, Answer(2, True), AT) is None
    again = await quizzes.record(7, "2026-03-01T09:00", ALICE, Answer(1, False), AT)
    assert again == Answer(2, True)  # the first answer stands
    assert await quizzes.record(7, "2026-03-01T09:00", BOB, Answer(1, False), AT) is None
    assert await quizzes.record(7, "2026-03-02T09:00", BOB, Answer(2, True), AT) is None
    assert await quizzes.answer_of(7, "2026-03-01T09:00", BOB) == Answer(1, False)
    assert await quizzes.answer_of(8, "2026-03-01T09:00", BOB) is None
    assert await quizzes.tally(7, "2026-03-01T09:00") == Tally(2, 1)


async def test_forgetting_a_member_deletes_their_rows_only(backend: Database) -> None:
    members, ledger = MemberData(backend), ActivityStore(backend)
    for user in (ALICE, BOB):
        await ledger.record(_act(user, dedupe=f"a:{user.id}"))
        await ledger.record(_act(user, dedupe=f"b:{user.id}"))
        await QuizStore(backend).record(1, "s", user, Answer(0, True), AT)
        await Preferences(backend).set_timezone(user, "UTC")
    held = await members.held(ALICE)
    assert set(held) == set(PERSONAL) | set(ANONYMISED)
    expected = {"activity": 2, "quiz_answers": 1, "member_settings": 1}
    assert {t: n for t, n in held.items() if n} == expected
    deleted = await members.forget(ALICE)
    assert {t: n for t, n in deleted.items() if n} == expected
    assert not any((await members.held(ALICE)).values())
    assert {t: n for t, n in (await members.held(BOB)).items() if n} == expected
