"""The weekly summary carries a chart of its week (`week.png`): the channel's quick checks per
local day in the schedule's zone, right below wrong; a quiet week has none. The console
prints it as Unicode bars instead."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

from PIL import Image

from adapters.console.adapter import ConsoleAdapter
from bot.app import App
from bot.charts import draw
from bot.store.activity import ActKind
from bot.types import ChannelRef, Invocation, Locale, Reply, User
from tests.fakes import FakeAdapter, FakeClock

HERE = ChannelRef("test", "c1", "guild")
ADMIN = User("test", "admin", "admin", is_admin=True)
ALICE, YOU = User("test", "u1", "alice"), User("console", "local", "you")
SATURDAY = datetime(2026, 3, 7, 12, 0, tzinfo=UTC)
MONDAY_9 = datetime(2026, 3, 9, 1, 0, tzinfo=UTC)  # Monday 09:00 in Shanghai


async def weekly(app: App) -> None:
    options = {"action": "set", "time": "09:00", "timezone": "Asia/Shanghai", "summary": "weekly"}
    await app.core.handle(Invocation("schedule", options, ADMIN, HERE, Locale.EN))


async def answered(app: App, at: datetime, *, right: bool) -> None:
    await app.ledger.record(ActKind.QUIZ, ALICE, HERE, "python-gil", correct=right,
                            points=10 if right else 0, at=at, dedupe=at.isoformat())  # fmt: skip


async def summary(app: App, clock: FakeClock, adapter: FakeAdapter) -> Reply:
    clock.set(MONDAY_9)
    await app.scheduler.tick()
    (sent,) = [s.reply for s in adapter.sent if (s.reply.title or "").startswith("Last week")]
    return sent


def colour(png: bytes, weekday: int, height: int) -> tuple[int, ...]:
    """The colour `height` pixels above the baseline in the middle of a weekday's bar."""
    x = draw.bar_x(weekday) + draw.BAR_WIDTH // 2
    with Image.open(io.BytesIO(png)) as image:
        return tuple(image.convert("RGB").getpixel((x, draw.BAR_BASE - height)))  # type: ignore[arg-type]


async def test_the_summary_carries_the_weeks_chart_by_local_day(
    app: App, clock: FakeClock, adapter: FakeAdapter
) -> None:
    clock.set(SATURDAY)
    await weekly(app)
    await answered(app, datetime(2026, 3, 2, 16, 30, tzinfo=UTC), right=True)  # Tue 00:30 there
    await answered(app, datetime(2026, 3, 4, 2, 0, tzinfo=UTC), right=False)  # Wednesday
    await answered(app, datetime(2026, 3, 4, 3, 0, tzinfo=UTC), right=True)  # Wednesday
    await answered(app, datetime(2026, 3, 8, 15, 59, tzinfo=UTC), right=True)  # Sun 23:59 there
    await answered(app, datetime(2026, 3, 8, 16, 0, tzinfo=UTC), right=True)  # next week
    (chart,) = (await summary(app, clock, adapter)).attachments
    assert (chart.name, chart.mime) == ("week.png", "image/png")
    with Image.open(io.BytesIO(chart.data)) as image:
        assert image.size == draw.CHART_SIZE
    assert colour(chart.data, 0, 2) == draw.BACKGROUND  # Monday: nothing (UTC would say 1)
    assert colour(chart.data, 1, 2) == draw.RIGHT
    assert colour(chart.data, 2, 2) == draw.RIGHT  # one right below one wrong
    assert colour(chart.data, 2, 149) == draw.WRONG
    assert colour(chart.data, 6, 2) == draw.RIGHT
    assert colour(chart.data, 5, 2) == draw.BACKGROUND
    assert len(chart.data) < 60_000


async def test_a_quiet_week_has_no_chart(app: App, clock: FakeClock, adapter: FakeAdapter) -> None:
    clock.set(SATURDAY)
    await weekly(app)
    assert (await summary(app, clock, adapter)).attachments == ()


async def test_the_console_prints_the_weeks_chart_in_unicode(
    app: App, clock: FakeClock, tmp_path: Path
) -> None:  # the console saves other attachments into `tmp_path`
    clock.set(SATURDAY)
    terminal = ChannelRef("console", "terminal")
    options = {"action": "set", "time": "09:00", "timezone": "UTC", "summary": "weekly"}
    await app.core.handle(Invocation("schedule", options, ADMIN, terminal, Locale.ZH))
    for day, right in [(3, True), (3, False), (4, True)]:  # Tuesday: 1 and 1; Wednesday: 1
        at = datetime(2026, 3, day, 10, int(right), tzinfo=UTC)
        await app.ledger.record(ActKind.QUIZ, YOU, terminal, "python-gil", correct=right,
                                points=10 * right, at=at, dedupe=f"c{day}{right}")  # fmt: skip
    screen = io.StringIO()
    console = ConsoleAdapter(app.core, io.StringIO(""), screen, files=tmp_path)
    await app.platforms.attach("console", console)
    clock.set(datetime(2026, 3, 9, 9, 0, tzinfo=UTC))
    await app.scheduler.tick()
    printed = screen.getvalue()
    assert "每天的小测验：2026-03-02 – 2026-03-08" in printed
    assert "│ 二 " + "█" * 10 + "░" * 10 + " 答对 1，答错 1" in printed
    assert "│ 三 " + "█" * 10 + " 答对 1，答错 0" in printed
    assert "│ 一 答对 0，答错 0" in printed
    assert "week.png" not in printed  # printed, not saved
