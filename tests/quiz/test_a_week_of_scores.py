"""The issue's "done when": a week of one channel's daily quizzes, through the app that ships
(open_app, the scheduler's loop driven by a fake clock, the core, a fake platform), with
members in three time zones answering on different days: their points, their streaks
(counted in their own zones, one with a frozen day, one broken), the week's leaderboard, and
the weekly summary posted at the right instant, once."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import App
from bot.quiz import QuizPost, check_for
from bot.types import ActionKind, ChannelRef, Invocation, Locale, Reply, User
from tests.content.test_new_format import write_item
from tests.fakes import FakeAdapter, FakeClock
from tests.quiz.shown import right_position

CHANNEL = ChannelRef("test", "c1", "guild")
ADMIN = User("test", "admin", "admin", is_admin=True)
ALICE = User("test", "u1", "alice")  # no zone of her own: the schedule's, Asia/Shanghai
BOB = User("test", "u2", "bob")  # America/New_York
CAROL = User("test", "u3", "carol")  # Europe/London
MONDAY = datetime(2026, 3, 2, 1, 0, tzinfo=UTC)  # 09:00 in Shanghai, ISO week 10


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    write_item(root)  # one explained question with quick checks, topic `inference`
    return root


async def say(app: App, line: str, who: User) -> Reply:
    return await app.core.handle_line(line, user=who, channel=CHANNEL, locale=Locale.EN)


async def answer(app: App, post: Reply, who: User, right: bool) -> Reply:
    """Click the right option of `post`'s quick check, or a wrong one."""
    buttons = [a for a in post.actions if a.kind is ActionKind.QUIZ]
    quiz = QuizPost.parse(buttons[0].value.rpartition(":")[0])
    question = await app.store.get("kv-cache-size")
    assert quiz is not None and question is not None
    check = check_for(question, quiz.slot)
    assert check is not None
    shown = right_position(post.body, check)  # where the post shows the right option
    command, options = buttons[shown if right else (shown + 1) % 4].invocation()
    reply = await app.core.handle(Invocation(command, options, who, CHANNEL, Locale.EN))
    assert (reply.title or "").startswith("✅" if right else "❌"), reply
    return reply


def summaries(adapter: FakeAdapter) -> list[Reply]:
    return [s.reply for s in adapter.sent if (s.reply.title or "").startswith("Last week")]


# Who answers on which day of the week (0 = Monday), how long after the post, and rightly?
PLAN: dict[User, dict[int, tuple[timedelta, bool]]] = {
    ALICE: {d: (timedelta(minutes=10), True) for d in (0, 1, 3, 4, 5, 6)},  # misses Wednesday
    BOB: {d: (timedelta(hours=2), d % 2 == 0) for d in range(7)},  # 22:00 the evening before
    CAROL: {0: (timedelta(minutes=30), True), 2: (timedelta(minutes=30), True),
            3: (timedelta(minutes=30), False)},
}  # fmt: skip


async def test_a_week_of_a_channels_quizzes(app: App, clock: FakeClock,
                                            adapter: FakeAdapter) -> None:  # fmt: skip
    clock.set(MONDAY - timedelta(days=1))
    saved = await say(app, "/schedule set 09:00 Asia/Shanghai topic:inference answer:+8h "
                           "summary:weekly", ADMIN)  # fmt: skip
    assert saved.body.startswith("Saved."), saved.body
    await say(app, "/me timezone:America/New_York", BOB)
    await say(app, "/me timezone:Europe/London", CAROL)

    seen: set[str] = set()
    for day in range(7):
        posted_at = MONDAY + timedelta(days=day)
        clock.set(posted_at)
        await app.scheduler.tick()
        post = next(s for s in reversed(adapter.sent) if s.reply.actions
                    and s.reply.actions[0].kind is ActionKind.QUIZ)  # fmt: skip
        assert post.thread_of is None and post.ref.message_id not in seen
        seen.add(post.ref.message_id)
        answers = sorted((plan[day][0], who, plan[day][1]) for who, plan in PLAN.items()
                         if day in plan)  # fmt: skip
        for delay, who, right in answers:
            clock.set(posted_at + delay)
            await answer(app, post.reply, who, right)
        clock.set(posted_at + timedelta(hours=8))
        await app.scheduler.tick()
        assert adapter.sent[-1].thread_of == post.ref  # the answer, in the post's thread
        clock.advance(timedelta(seconds=5))
        await app.tallies.settled()

    # Points: 10 for a right answer, +5 in the first hour, one less per hour after.
    activity = app.ledger.activity
    assert await activity.points(ALICE) == 6 * 15
    assert await activity.points(BOB) == 4 * 13  # right on Mon, Wed, Fri, Sun, 2 hours in
    assert await activity.points(CAROL) == 2 * 15  # a wrong answer scores 0
    # Days in each member's own zone: Bob answered each evening before, New York time.
    assert await activity.days(BOB) == {date(2026, 3, d) for d in range(1, 8)}
    assert await activity.days(ALICE) == {date(2026, 3, d) for d in (2, 3, 5, 6, 7, 8)}

    sunday_evening = MONDAY + timedelta(days=6, hours=11)  # 20:00 Sunday in Shanghai
    clock.set(sunday_evening)
    alice, _ = await app.ledger.streak(ALICE, sunday_evening, CHANNEL)
    assert (alice.days, alice.frozen, alice.today) == (6, (date(2026, 3, 4),), True)
    bob, _ = await app.ledger.streak(BOB, sunday_evening, CHANNEL)
    assert (bob.days, bob.frozen, bob.today) == (7, (), False)  # Sunday in New York not over
    carol, best = await app.ledger.streak(CAROL, sunday_evening, CHANNEL)
    assert (carol.days, best) == (0, 3)  # Mon, (Tue frozen), Wed, Thu; Fri and Sat: over

    board = await say(app, "/leaderboard", CAROL)
    assert board.title == "Leaderboard: this week, this server"
    table = board.body.split("```")[1].strip().splitlines()[2:]
    assert [line.split() for line in table] == [["1", "alice", "90"], ["2", "bob", "52"],
                                                ["3", "carol", "30"]]  # fmt: skip

    summary_at = MONDAY + timedelta(days=7)  # the next Monday, 09:00 in Shanghai
    clock.set(summary_at - timedelta(seconds=1))
    await app.scheduler.tick()
    before = len(summaries(adapter))  # the week before the schedule's first: a quiet one
    clock.set(summary_at)
    await app.scheduler.tick()
    await app.scheduler.tick()
    assert len(summaries(adapter)) == before + 1
    summary = summaries(adapter)[-1]
    assert summary.title == "Last week here: 2026-03-02 – 2026-03-08"
    assert summary.body.splitlines() == [
        "**Top members**", "1. alice: 90", "2. bob: 52", "3. carol: 30", "",
        "Quick checks: 16 answered, 12 right.", "Problems solved: 0.", "",
        "**Longest streaks**", "- bob: 7-day streak", "- alice: 6-day streak",
    ]  # fmt: skip
