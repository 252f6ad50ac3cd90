"""The pictures as Unicode text, for a place that shows no images (the console).

The calendar: one character a day, weeks as columns and Monday on top, as on the card: `·`
nothing, `░▒▓█` from one act to the busiest days, `❄` a frozen day, and today between
brackets. The week's chart: a bar a day, `█` right and `░` wrong, BAR characters at most.
"""

from __future__ import annotations

from wcwidth import wcswidth

from bot.charts.model import SHADES, WEEKS, Calendar, Day, WeekChart
from bot.i18n import t
from bot.types import Locale

MARKS = "·░▒▓█"
BAR = 20
FROZEN = "❄"


def calendar_text(calendar: Calendar, locale: Locale) -> str:
    names = t(locale, "card.weekdays").split()
    width = max(wcswidth(name) for name in names)
    rows = [_row(calendar, weekday, names[weekday], width) for weekday in range(7)]
    return "\n".join([t(locale, "card.calendar", weeks=WEEKS), *rows, _legend(locale)])


def _row(calendar: Calendar, weekday: int, name: str, width: int) -> str:
    """Today is the last day shown, so it ends its row: `[x]`."""
    line = name + " " * (width - wcswidth(name))
    for week in range(WEEKS):
        day = calendar.at(week, weekday)
        if day is None:
            break
        line += f"[{_mark(day)}]" if day.day == calendar.today else f" {_mark(day)}"
    return line


def _mark(day: Day) -> str:
    return FROZEN if day.frozen and not day.count else MARKS[day.shade]


def _legend(locale: Locale) -> str:
    shades = " ".join(f"{m} {_range(i)}" for i, m in enumerate(MARKS) if i)
    return t(locale, "card.legend", none=MARKS[0], shades=shades, frozen=FROZEN)


def _range(shade: int) -> str:
    least = SHADES[shade]
    if shade + 1 == len(SHADES):
        return f"{least}+"
    most = SHADES[shade + 1] - 1
    return str(least) if most == least else f"{least}–{most}"


def week_text(chart: WeekChart) -> str:
    names = t(chart.locale, "card.weekdays").split()
    width = max(wcswidth(name) for name in names)
    top = max((d.right + d.wrong for d in chart.days), default=0) or 1
    first, last = chart.days[0].day.isoformat(), chart.days[-1].day.isoformat()
    lines = [t(chart.locale, "chart.title", start=first, end=last)]
    for name, day in zip(names, chart.days, strict=True):
        right, wrong = (round(BAR * n / top) for n in (day.right, day.wrong))
        counts = t(chart.locale, "chart.counts", right=day.right, wrong=day.wrong)
        bar = "█" * right + "░" * wrong
        lines.append(f"{name}{' ' * (width - wcswidth(name))} {bar}{' ' if bar else ''}{counts}")
    return "\n".join(lines)
