"""The calendar as Unicode text, for a place that shows no images (the console).

One character a day, weeks as columns and Monday on top, as on the card: `·` nothing,
`░▒▓█` from one act to the busiest days, `❄` a frozen day, and today between brackets.
"""

from __future__ import annotations

from wcwidth import wcswidth

from bot.charts.model import SHADES, WEEKS, Calendar, Day
from bot.i18n import t
from bot.types import Locale

MARKS = "·░▒▓█"
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
