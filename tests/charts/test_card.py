"""`/me` carries a picture of the member's progress (`card.png`) and its calendar as text:
the last twelve weeks, Monday on top, read from the ledger on the member's own days (their
time zone, the ISO week boundary), frozen days apart from empty ones; drawn in a worker thread,
once a day unless something changed; in Chinese with a CJK font, in English labels without."""

from __future__ import annotations

import io
import threading
from datetime import UTC, datetime

import pytest
from PIL import Image

from bot.app import App
from bot.charts import draw, fonts
from bot.store.activity import ActKind
from bot.types import Attachment, ChannelRef, Locale, User
from tests.fakes import FakeClock

ALICE, BOB = User("test", "u1", "alice"), User("test", "u2", "alice")
HERE = ChannelRef("test", "c1", "w1")
# Monday 2026-01-05 01:30 in Shanghai, still Sunday in UTC: the member's day is Monday.
NOW = datetime(2026, 1, 4, 17, 30, tzinfo=UTC)
LAST, FIRST_DAY = 11, 0  # the last column (today's week) and Monday's row


async def answer(app: App, at: datetime, n: int = 1) -> None:
    for i in range(n):
        await app.ledger.record(ActKind.QUIZ, ALICE, HERE, "python-gil", correct=True,
                                points=10, at=at, dedupe=f"quiz:{at.isoformat()}:{i}")  # fmt: skip


async def card(app: App, locale: Locale = Locale.EN, user: User = ALICE) -> Attachment:
    reply = await app.core.handle_line("/me", user=user, channel=HERE, locale=locale)
    (picture,) = reply.attachments
    return picture


async def shanghai_week(app: App, clock: FakeClock) -> None:
    """Wed 12-31 (3 acts), Thu 01-01, Sat 01-03 at 23:00 local, and Mon 01-05 at 00:30 local;
    Fri 01-02 missed (frozen: the streak carried over it) and Sun 01-04 missed (a second miss
    that week: the streak ended, nothing carried)."""
    await app.core.handle_line("/me timezone:Asia/Shanghai", user=ALICE, channel=HERE,
                               locale=Locale.EN)  # fmt: skip
    await answer(app, datetime(2025, 12, 31, 4, 0, tzinfo=UTC), 3)
    await answer(app, datetime(2026, 1, 1, 4, 0, tzinfo=UTC))
    await answer(app, datetime(2026, 1, 3, 15, 0, tzinfo=UTC))
    await answer(app, datetime(2026, 1, 4, 16, 30, tzinfo=UTC))
    clock.current = NOW


def grid(text: str) -> list[str]:
    """The calendar's rows, one character a day (today's unbracketed)."""
    rows = text.splitlines()[1:8]
    return [row[len(row.split(" ")[0]) :].replace("[", " ").replace("]", "")[1::2] for row in rows]


async def test_the_calendar_counts_the_members_days_in_their_zone(
    app: App, clock: FakeClock
) -> None:
    await shanghai_week(app, clock)
    rows = grid((await card(app)).text or "")
    assert [len(r) for r in rows] == [12, 11, 11, 11, 11, 11, 11]  # Monday 01-05 opens a week
    assert rows[FIRST_DAY][LAST] == "░"  # today, Monday, local (UTC still says Sunday)
    week = [r[10] for r in rows]  # Monday 12-29 to Sunday 01-04
    assert week == ["·", "·", "▒", "░", "❄", "░", "·"]
    assert all(set(r[:10]) == {"·"} for r in rows)  # nothing in the ten weeks before
    assert "[░]" in (await card(app)).text.splitlines()[1]  # type: ignore[union-attr]


def pixels(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB").tobytes()


def colour(png: bytes, week: int, weekday: int) -> tuple[int, ...]:
    x0, y0, x1, y1 = draw.cell_box(week, weekday)
    with Image.open(io.BytesIO(png)) as image:
        return tuple(image.convert("RGB").getpixel(((x0 + x1) // 2, (y0 + y1) // 2)))  # type: ignore[arg-type]


async def test_the_card_is_a_png_with_frozen_practised_and_empty_days_apart(
    app: App, clock: FakeClock
) -> None:
    await shanghai_week(app, clock)
    picture = await card(app)
    assert (picture.name, picture.mime) == ("card.png", "image/png")
    with Image.open(io.BytesIO(picture.data)) as image:
        assert image.format == "PNG" and image.size == draw.CARD_SIZE
    frozen, practised, empty = (colour(picture.data, 10, d) for d in (4, 5, 6))
    assert len({frozen, practised, empty}) == 3
    assert (frozen, practised, empty) == (draw.FROZEN, draw.SHADES[1], draw.SHADES[0])
    assert colour(picture.data, 10, 2) == draw.SHADES[2]  # three acts on Wednesday
    assert len(picture.data) < 60_000


async def test_a_second_me_the_same_day_draws_nothing_until_something_changes(
    app: App, clock: FakeClock
) -> None:
    await shanghai_week(app, clock)
    first = await card(app)
    assert app.painter.drawn == 1
    assert (await card(app)).data == first.data and app.painter.drawn == 1
    await answer(app, NOW)  # a quiz answered changes what the card shows
    await card(app)
    assert app.painter.drawn == 2


async def test_the_card_is_drawn_off_the_event_loop(
    app: App, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[threading.Thread] = []
    original = draw.card_png

    def card_png(value: object) -> bytes:
        threads.append(threading.current_thread())
        return original(value)  # type: ignore[arg-type]

    monkeypatch.setattr(draw, "card_png", card_png)
    await card(app)
    assert len(threads) == 1 and threads[0] is not threading.current_thread()


async def test_chinese_labels_need_a_cjk_font_and_fall_back_to_english_without_one(
    app: App, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert fonts.cjk_font() is not None, "install fonts-wqy-microhei (.ci/run does)"
    english = (await card(app)).data
    assert pixels((await card(app, Locale.ZH, BOB)).data) != pixels(english)
    monkeypatch.setattr(fonts, "CJK_FONTS", ())
    without = await card(app, Locale.ZH)
    assert pixels(without.data) == pixels(english)  # English labels: no boxes, no crash
    assert "一" in (without.text or "")  # the text calendar needs no font


async def test_a_card_that_cannot_be_drawn_leaves_the_text(
    app: App, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(value: object) -> bytes:
        raise OSError("cannot open resource")

    monkeypatch.setattr(draw, "card_png", broken)
    reply = await app.core.handle_line("/me", user=ALICE, channel=HERE, locale=Locale.EN)
    assert reply.title == "Your progress" and reply.attachments == ()
    assert "could not be drawn" in caplog.text
