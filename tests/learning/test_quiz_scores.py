"""A daily post's quick check scores through the app that ships: right answers score more
when early, a wrong one scores 0 but keeps the streak, and no replay scores twice."""

from __future__ import annotations

from datetime import date, timedelta

from bot.app import App
from bot.quiz import check_for
from bot.settings import Settings
from bot.store.db import Database
from bot.types import Reply
from tests.fakes import FakeAdapter, FakeClock
from tests.quiz.shown import right_position
from tests.quiz.test_channel_quiz import (
    ALICE,
    BOB,
    CAROL,
    POSTED,
    click,
    content_dir,
    daily,
    posted,
    running,
)

__all__ = ["content_dir"]  # the quiz bank, as a fixture of this module too


async def right_option(app: App, post: Reply) -> int:
    """Where `post` shows its right option (0 for A)."""
    question = await app.store.get("kv-cache-size")
    assert question is not None
    check = check_for(question, "2026-03-02")  # the post's slot: its local date
    assert check is not None
    return right_position(post.body, check)


async def test_answers_score_once_each_and_early_ones_more(
    loaded_database: Database, settings: Settings, clock: FakeClock
) -> None:
    adapter = FakeAdapter()
    async with posted(loaded_database, settings, clock, adapter) as app:
        (post,) = adapter.sent
        right = await right_option(app, post.reply)
        wrong = (right + 1) % 4
        clock.set(POSTED + timedelta(minutes=20))
        await click(app, post.reply, right, ALICE)
        clock.set(POSTED + timedelta(hours=3, minutes=10))
        await click(app, post.reply, right, CAROL)
        await click(app, post.reply, wrong, BOB)
        for _ in range(3):  # replays and second thoughts
            for who in (ALICE, BOB, CAROL):
                await click(app, post.reply, right, who)
        activity = app.ledger.activity
        assert await activity.points(ALICE, "guild") == 15  # 10 + 5 in the first hour
        assert await activity.points(CAROL, "guild") == 12  # 10 + 2 three hours in
        assert await activity.points(BOB) == 0
        assert await activity.days(BOB) == {date(2026, 3, 2)}  # a wrong answer is still a day
        rows = await app.db.fetch_all("SELECT kind, channel, correct FROM activity")
        assert sorted(tuple(r) for r in rows) == [("quiz", "c1", 0), ("quiz", "c1", 1),
                                                  ("quiz", "c1", 1)]  # fmt: skip
        clock.advance(timedelta(seconds=5))  # the last tally edit's turn
        await app.tallies.settled()


async def test_the_early_bonus_counts_from_when_a_late_post_went_out(
    loaded_database: Database, settings: Settings, clock: FakeClock
) -> None:
    """The bot was down at 09:00 and sent the day's post at 09:52 (within the grace period):
    a right answer ten minutes after it arrived is a first-hour answer."""
    adapter = FakeAdapter()
    await daily(loaded_database)
    clock.set(POSTED + timedelta(minutes=52))
    async with running(settings, clock, adapter) as app:
        await app.scheduler.start()
        await app.scheduler.tick()
        (post,) = adapter.sent
        clock.set(POSTED + timedelta(minutes=62))
        await click(app, post.reply, await right_option(app, post.reply), ALICE)
        assert await app.ledger.activity.points(ALICE, "guild") == 15  # 10 + 5, not 10 + 4
