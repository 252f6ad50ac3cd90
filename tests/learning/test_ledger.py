"""The ledger through the app's own wiring: an act counts once, on the member's local day
(their zone, else the channel schedule's, else UTC), and streaks read those days."""

from __future__ import annotations

from datetime import UTC, date, datetime

from bot.app import App
from bot.store.activity import ActKind
from bot.types import ChannelRef, Locale, User

ALICE = User("test", "u1", "alice")
HERE = ChannelRef("test", "c1", "w1")
LATE = datetime(2026, 3, 2, 20, 30, tzinfo=UTC)  # 04:30 on the 3rd in Shanghai


async def record(app: App, at: datetime, key: str, user: User = ALICE) -> bool:
    return await app.ledger.record(ActKind.QUIZ, user, HERE, "python-gil", correct=True,
                                   points=10, at=at, dedupe=key)  # fmt: skip


async def test_an_act_counts_once(app: App) -> None:
    assert await record(app, LATE, "quiz:1")
    assert not await record(app, LATE, "quiz:1")  # a replay
    assert await app.ledger.activity.points(ALICE) == 10
    assert await app.ledger.activity.points(ALICE, "w1") == 10
    assert await app.ledger.activity.points(ALICE, "elsewhere") == 0


async def test_the_day_is_the_members_zone_then_the_channels_then_utc(app: App) -> None:
    await record(app, LATE, "a")
    assert await app.ledger.activity.days(ALICE) == {date(2026, 3, 2)}  # UTC
    await app.core.handle_line("/schedule set 09:00 America/New_York", locale=Locale.EN,
                               user=User("test", "admin", "admin", is_admin=True),
                               channel=HERE)  # fmt: skip
    await record(app, datetime(2026, 3, 4, 2, 0, tzinfo=UTC), "b")  # 21:00 on the 3rd in NY
    assert date(2026, 3, 3) in await app.ledger.activity.days(ALICE)
    await app.ledger.prefs.set_timezone(ALICE, "Asia/Shanghai")
    await record(app, datetime(2026, 3, 4, 20, 0, tzinfo=UTC), "c")  # 04:00 on the 5th
    assert await app.ledger.activity.days(ALICE) == {date(2026, 3, d) for d in (2, 3, 5)}


async def test_streaks_read_the_recorded_days(app: App) -> None:
    for day in (2, 3, 5):
        await record(app, datetime(2026, 3, day, 12, tzinfo=UTC), f"d{day}")
    streak, best = await app.ledger.streak(ALICE, datetime(2026, 3, 5, 13, tzinfo=UTC))
    assert (streak.days, streak.frozen, streak.today, best) == (3, (date(2026, 3, 4),), True, 3)
    streak, _ = await app.ledger.streak(ALICE, datetime(2026, 3, 8, 13, tzinfo=UTC))
    assert streak.days == 0
