"""`/me`: streak (with its frozen day and whether today counts), points here and in all,
quizzes answered and right per topic, reviews due now and problems solved, in both
languages; all read from the database, with no grading sandbox running."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.app import App
from bot.store.activity import ActKind
from bot.types import ChannelRef, Locale, Reply, Tone, User
from tests.fakes import FakeClock

ALICE = User("test", "u1", "alice")
HERE = ChannelRef("test", "c1", "w1")
ELSEWHERE = ChannelRef("test", "c9", "w2")


async def me(app: App, locale: Locale = Locale.EN) -> Reply:
    return await app.core.handle_line("/me", user=ALICE, channel=HERE, locale=locale)


def fields(reply: Reply) -> dict[str, str]:
    return {f.name: f.value for f in reply.fields}


async def practise(app: App, day: int, qid: str, *, correct: bool = True,
                   where: ChannelRef = HERE, points: int = 10) -> None:  # fmt: skip
    """A quiz answered on 2026-01-`day` at 09:00 UTC (the member's day: no zone is set)."""
    at = datetime(2026, 1, day, 9, 0, tzinfo=UTC)
    await app.ledger.record(ActKind.QUIZ, ALICE, where, qid, correct=correct,
                            points=points if correct else 0, at=at,
                            dedupe=f"quiz:{day}:{qid}:{where.channel}")  # fmt: skip


async def test_a_newcomer_sees_an_empty_record_without_any_grading(app: App) -> None:
    assert app.grading is None  # the `app` fixture starts no sandbox
    reply = await me(app)
    assert reply.tone is Tone.INFO and reply.ephemeral, reply.body
    assert reply.title == "Your progress"
    assert "No streak running (longest: 0)" in reply.body
    assert fields(reply) == {
        "Points": "0 here · 0 in all", "Reviews due": "0 now",
        "By topic (right / answered)": "none yet", "Solved": "none yet",
        "Attempted": "none yet", "Submissions": "0 solution(s) · 0 /run snippet(s)",
        "Your days count in": "UTC (change: `/me timezone:<zone>`)",
    }  # fmt: skip


async def test_the_whole_record(app: App, clock: FakeClock) -> None:
    # Thursday, Friday, (Saturday missed: frozen), Sunday; today is Monday 2026-01-05.
    await practise(app, 1, "python-gil")
    await practise(app, 2, "ring-allreduce", correct=False)
    await practise(app, 4, "gpu-memory", where=ELSEWHERE, points=25)
    now = clock.now().isoformat()
    later = (clock.now() + timedelta(days=3)).isoformat()
    for qid, due in [("python-gil", now), ("gpu-memory", now), ("ring-allreduce", later)]:
        await app.db.execute("INSERT INTO cards VALUES ('test', 'u1', ?, '{}', ?)", (qid, due))
    for problem, verdict in [("fast-power", "accepted"), ("two-sum", "wrong_answer")]:
        await app.db.execute(
            "INSERT INTO submissions (platform, user_id, user_name, problem_id, code, state, "
            "verdict, created_at) VALUES ('test', 'u1', 'alice', ?, 'x', 'graded', ?, ?)",
            (problem, verdict, now),
        )
    reply = await me(app)
    assert "🔥 Streak: 3 day(s) in a row (longest: 3)." in reply.body
    assert "❄️ Frozen (missed, carried over: one a week): 2026-01-03" in reply.body
    assert "Today does not count yet" in reply.body
    assert fields(reply) == {
        "Points": "10 here · 35 in all", "Reviews due": "2 now",
        "By topic (right / answered)":
            "`distributed`: 1 / 2\n`gpu`: 1 / 1\n`python`: 1 / 1",
        "Solved": "`fast-power`", "Attempted": "`two-sum`",
        "Submissions": "2 solution(s) · 0 /run snippet(s)",
        "Your days count in": "UTC (change: `/me timezone:<zone>`)",
    }  # fmt: skip
    await practise(app, 5, "python-gil")  # today
    again = await me(app)
    assert "🔥 Streak: 4 day(s) in a row (longest: 4)." in again.body
    assert "Today counts already ✅" in again.body


async def test_in_chinese(app: App) -> None:
    await practise(app, 4, "python-gil")
    reply = await me(app, Locale.ZH)
    assert reply.title == "你的进度"
    assert "🔥 连续学习：1 天（最长：1 天）。" in reply.body and "今天还没有打卡" in reply.body
    assert fields(reply)["积分"] == "本工作区 10 · 全部 10"
    assert fields(reply)["按主题（答对 / 作答）"] == "Python 内部：1 / 1"
