"""The weekly summary: opted into with `/schedule set … summary:weekly`, shown by `/schedule
show`, posted Mondays at the schedule's post time in its zone about the week that ended,
exactly once per week, restarts included."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from bot.app import App, open_app
from bot.settings import Settings
from bot.store.activity import ActKind
from bot.types import ChannelRef, Invocation, Locale, Reply, User
from tests.fakes import FakeAdapter, FakeClock

HERE = ChannelRef("test", "c1", "guild")
ADMIN = User("test", "admin", "admin", is_admin=True)
ALICE, BOB = User("test", "u1", "alice"), User("test", "u2", "bob")
SATURDAY = datetime(2026, 3, 7, 12, 0, tzinfo=UTC)
MONDAY_9 = datetime(2026, 3, 9, 1, 0, tzinfo=UTC)  # Monday 09:00 in Shanghai


async def schedule(app: App, **options: str) -> Reply:
    return await app.core.handle(Invocation("schedule", options, ADMIN, HERE, Locale.EN))


def summaries(adapter: FakeAdapter) -> list[Reply]:
    return [s.reply for s in adapter.sent if (s.reply.title or "").startswith("Last week here")]


async def act(app: App, who: User, at: datetime, points: int, kind: ActKind = ActKind.QUIZ) -> None:
    await app.ledger.record(kind, who, HERE, "python-gil", correct=points > 0, points=points,
                            at=at, dedupe=f"{who.id}:{at.isoformat()}:{kind}")  # fmt: skip


async def test_opting_in_and_out(app: App, clock: FakeClock, adapter: FakeAdapter) -> None:
    clock.set(SATURDAY)
    base = {"action": "set", "time": "09:00", "timezone": "Asia/Shanghai"}
    shown = await schedule(app, **base, summary="weekly")
    assert {f.name: f.value for f in shown.fields}["Weekly summary"] == "Mondays at the post time"
    await schedule(app, **base, days="weekdays")  # left out: as it was
    shown = await schedule(app, action="show")
    assert {f.name: f.value for f in shown.fields}["Weekly summary"] == "Mondays at the post time"
    await schedule(app, **base, summary="off")
    shown = await schedule(app, action="show")
    assert {f.name: f.value for f in shown.fields}["Weekly summary"] == "off"
    clock.set(MONDAY_9)
    await app.scheduler.tick()
    assert adapter.sent and summaries(adapter) == []  # the question, no summary


async def test_the_summary_goes_out_once_on_monday_at_the_post_time(
    app: App, clock: FakeClock, adapter: FakeAdapter, settings: Settings
) -> None:
    clock.set(SATURDAY)
    await schedule(app, action="set", time="09:00", timezone="Asia/Shanghai", summary="weekly")
    await act(app, ALICE, datetime(2026, 3, 3, 2, tzinfo=UTC), 15)
    await act(app, BOB, datetime(2026, 3, 4, 2, tzinfo=UTC), 0)
    await act(app, BOB, datetime(2026, 3, 5, 2, tzinfo=UTC), 40, ActKind.SOLVE)
    await act(app, ALICE, datetime(2026, 3, 8, 15, 59, tzinfo=UTC), 10)  # Sunday 23:59 there
    await act(app, BOB, datetime(2026, 3, 8, 16, 0, tzinfo=UTC), 10)  # Monday 00:00: next week
    clock.set(MONDAY_9 - timedelta(seconds=1))
    await app.scheduler.tick()
    assert summaries(adapter) == []
    clock.set(MONDAY_9)
    await app.scheduler.tick()
    (summary,) = summaries(adapter)
    assert summary.title == "Last week here: 2026-03-02 – 2026-03-08"
    assert summary.body.splitlines()[:3] == ["**Top members**", "1. bob: 40", "2. alice: 25"]
    assert "Quick checks: 3 answered, 2 right." in summary.body
    assert "Problems solved: 1." in summary.body
    assert summary.body.endswith("**Longest streaks**\n- alice: 1-day streak\n- bob: 1-day streak")
    await app.scheduler.tick()
    clock.set(MONDAY_9 + timedelta(minutes=5))
    await app.scheduler.tick()
    assert len(summaries(adapter)) == 1
    rows = await app.db.fetch_all("SELECT schedule_id, week, state FROM summary_posts")
    assert [tuple(r) for r in rows] == [(1, "2026-W10", "sent")]

    again = FakeAdapter()  # a restart within the grace period: nothing is sent twice
    async with open_app(settings, clock=clock, rng=random.Random(1), grading=False) as second:
        await second.platforms.attach("test", again)
        await second.scheduler.tick()
        clock.set(MONDAY_9 + timedelta(days=7))
        await second.scheduler.tick()
        (next_week,) = summaries(again)
        assert next_week.title == "Last week here: 2026-03-09 – 2026-03-15"
        assert "1. bob: 10" in next_week.body


async def test_a_summary_missed_while_down_is_posted_within_the_grace_period(
    app: App, clock: FakeClock, settings: Settings
) -> None:
    clock.set(SATURDAY)
    await schedule(app, action="set", time="09:00", timezone="Asia/Shanghai", summary="weekly")
    clock.set(MONDAY_9 + timedelta(minutes=30))  # the bot was down at 09:00
    later = FakeAdapter()
    async with open_app(settings, clock=clock, rng=random.Random(1), grading=False) as second:
        await second.platforms.attach("test", later)
        await second.scheduler.tick()
        (quiet,) = summaries(later)
        assert quiet.body.startswith("A quiet week")
