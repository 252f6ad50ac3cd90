"""Drawing pictures as PNG bytes with Pillow. The only module that imports Pillow: the
painter imports it when it first draws, so starting the bot (or `studybot --help`) does not
pay for it. Every function here is blocking: it runs in a worker thread (`Painter`).

The geometry is fixed (the card is CARD_SIZE whatever it shows: topics are capped, long
names cut), so tests can read a day's square at `cell_box`.
"""

from __future__ import annotations

import io
import logging
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.charts import fonts
from bot.charts.model import WEEKS, Calendar, Day, ProgressCard, WeekChart
from bot.i18n import t
from bot.types import Locale

log = logging.getLogger(__name__)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
RGB = tuple[int, int, int]

CARD_SIZE = (640, 300)
CHART_SIZE = (480, 260)
BAR_BASE, BAR_WIDTH = 210, 40  # the week's chart: the baseline and a bar's width
CELL, GAP = 16, 4  # a day's square and the space between squares
GRID = (64, 96)  # the top left of the calendar's first square (Monday of the oldest week)
BACKGROUND: RGB = (255, 255, 255)
INK: RGB = (36, 41, 47)
FAINT: RGB = (101, 109, 118)
SHADES: tuple[RGB, ...] = ((235, 237, 240), (155, 233, 168), (64, 196, 99), (48, 161, 78),
                           (33, 110, 57))  # fmt: skip
FROZEN: RGB = (120, 180, 255)
RIGHT: RGB = (64, 196, 99)
WRONG: RGB = (240, 128, 128)


def bar_x(weekday: int) -> int:
    """The left edge of a weekday's bar on the week's chart (0 = Monday); bars stand on
    BAR_BASE."""
    return 40 + weekday * 60


def cell_box(week: int, weekday: int) -> tuple[int, int, int, int]:
    """The square of the day in column `week` (0 = oldest) and row `weekday` (0 = Monday)."""
    x, y = GRID[0] + week * (CELL + GAP), GRID[1] + weekday * (CELL + GAP)
    return x, y, x + CELL - 1, y + CELL - 1


def card_png(card: ProgressCard) -> bytes:
    locale = _drawable(card.locale)
    image = Image.new("RGB", CARD_SIZE, BACKGROUND)
    pen = ImageDraw.Draw(image)
    pen.text((24, 16), t(locale, "card.title", name=card.name), font=_font(locale, 22), fill=INK)
    stats = " · ".join([t(locale, "card.streak", days=card.streak, longest=card.longest),
                        t(locale, "card.points", points=card.points)])  # fmt: skip
    pen.text((24, 50), stats, font=_font(locale, 15), fill=FAINT)
    _calendar(pen, card.calendar, locale)
    _topics(pen, card, locale)
    return _png(image)


def week_png(chart: WeekChart) -> bytes:
    """Stacked bars a day: right below, wrong above."""
    locale = _drawable(chart.locale)
    image = Image.new("RGB", CHART_SIZE, BACKGROUND)
    pen = ImageDraw.Draw(image)
    first, last = chart.days[0].day.isoformat(), chart.days[-1].day.isoformat()
    title = t(locale, "chart.title", start=first, end=last)
    pen.text((24, 14), title, font=_font(locale, 18), fill=INK)
    names, small = t(locale, "card.weekdays").split(), _font(locale, 12)
    top = max((d.right + d.wrong for d in chart.days), default=0) or 1
    base, height, width = BAR_BASE, 150, BAR_WIDTH
    for n, day in enumerate(chart.days):
        x = bar_x(n)
        right, wrong = (round(height * v / top) for v in (day.right, day.wrong))
        if right:
            pen.rectangle((x, base - right, x + width, base), fill=RIGHT)
        if wrong:
            pen.rectangle((x, base - right - wrong, x + width, base - right - 1), fill=WRONG)
        total = day.right + day.wrong
        pen.text((x + width // 2, base - right - wrong - 4), str(total), font=small, fill=INK,
                 anchor="md")  # fmt: skip
        pen.text((x + width // 2, base + 8), names[n], font=small, fill=FAINT, anchor="ma")
    _key(pen, (40, 240), [(RIGHT, t(locale, "chart.right")), (WRONG, t(locale, "chart.wrong"))],
         small)  # fmt: skip
    return _png(image)


def _calendar(pen: ImageDraw.ImageDraw, calendar: Calendar, locale: Locale) -> None:
    small = _font(locale, 11)
    pen.text((GRID[0], GRID[1] - 22), t(locale, "card.calendar", weeks=WEEKS), font=small,
             fill=FAINT)  # fmt: skip
    for weekday, name in enumerate(t(locale, "card.weekdays").split()):
        pen.text((GRID[0] - 8, cell_box(0, weekday)[1] + CELL // 2), name, font=small,
                 fill=FAINT, anchor="rm")  # fmt: skip
    for week in range(WEEKS):
        for weekday in range(7):
            if (day := calendar.at(week, weekday)) is not None:
                _square(pen, cell_box(week, weekday), day, day.day == calendar.today)
    legend = [(SHADES[0], t(locale, "card.none")), (SHADES[2], t(locale, "card.practised")),
              (FROZEN, t(locale, "card.frozen"))]  # fmt: skip
    _key(pen, (GRID[0], cell_box(0, 6)[3] + 14), legend, small)


def _square(pen: ImageDraw.ImageDraw, box: tuple[int, int, int, int], day: Day,
            today: bool) -> None:  # fmt: skip
    fill = FROZEN if day.frozen and not day.count else SHADES[day.shade]
    pen.rectangle(box, fill=fill)
    if today:  # outlined just outside the square, so its shade still shows
        x0, y0, x1, y1 = box
        pen.rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), outline=INK, width=2)


def _topics(pen: ImageDraw.ImageDraw, card: ProgressCard, locale: Locale) -> None:
    x, y, small = 360, GRID[1] - 22, _font(locale, 12)
    pen.text((x, y), t(locale, "card.topics"), font=_font(locale, 11), fill=FAINT)
    if not card.topics:
        pen.text((x, y + 26), t(locale, "card.no_topics"), font=small, fill=FAINT)
    for n, bar in enumerate(card.topics):
        top = y + 24 + n * 24
        pen.text((x, top), _cut(pen, bar.topic, small, 110), font=small, fill=INK)
        share = bar.right / bar.answered if bar.answered else 0.0
        pen.rectangle((x + 116, top + 2, x + 216, top + 12), fill=SHADES[0])
        if share:
            pen.rectangle((x + 116, top + 2, x + 116 + round(100 * share), top + 12),
                          fill=SHADES[3])  # fmt: skip
        pen.text((x + 224, top), f"{bar.right}/{bar.answered}", font=small, fill=FAINT)


def _key(pen: ImageDraw.ImageDraw, at: tuple[int, int], items: list[tuple[RGB, str]],
         font: Font) -> None:  # fmt: skip
    x, y = at
    for colour, label in items:
        pen.rectangle((x, y, x + 10, y + 10), fill=colour)
        pen.text((x + 14, y + 5), label, font=font, fill=FAINT, anchor="lm")
        x += 14 + int(pen.textlength(label, font=font)) + 14


def _cut(pen: ImageDraw.ImageDraw, text: str, font: Font, width: int) -> str:
    """`text`, shortened with an ellipsis until it fits `width` pixels."""
    if pen.textlength(text, font=font) <= width:
        return text
    while text and pen.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def _drawable(locale: Locale) -> Locale:
    """Chinese when a font has its glyphs, else English labels (see bot/charts/fonts.py)."""
    if locale is Locale.ZH and fonts.cjk_font() is None:
        _warn_once()
        return Locale.EN
    return locale


@cache
def _warn_once() -> None:
    log.warning("no font with Chinese glyphs (install fonts-wqy-microhei): "
                "drawing Chinese pictures with English labels")  # fmt: skip


def _font(locale: Locale, size: int) -> Font:
    path = fonts.cjk_font() if locale is Locale.ZH else fonts.latin_font()
    return _load(path, size)


@cache
def _load(path: Path | None, size: int) -> Font:
    if path is None:
        return ImageFont.load_default(size)
    return ImageFont.truetype(str(path), size)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")  # `optimize` saves 3% and takes four times as long
    return out.getvalue()
