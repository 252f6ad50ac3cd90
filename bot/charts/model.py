"""What a picture shows, as frozen values: the same value draws the same picture, so its
digest keys the painter's cache."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date, timedelta

from bot.types import Locale

WEEKS = 12  # the calendar's columns, the current week last
TOPICS = 6  # the most practised topics a card shows: the card never grows
SHADES = (0, 1, 2, 4, 6)  # the least count of each shade, from empty to the darkest


@dataclass(frozen=True, slots=True)
class Day:
    day: date
    count: int  # acts that day (quick checks answered, reviews rated, problems solved)
    frozen: bool = False  # a missed day a streak carried over

    @property
    def shade(self) -> int:
        """0 (nothing) to 4 (the busiest days)."""
        return max(i for i, least in enumerate(SHADES) if self.count >= least)


@dataclass(frozen=True, slots=True)
class Calendar:
    """The last WEEKS weeks, Monday to Sunday columns, ending with the week of `today`
    (its days after today are not shown)."""

    today: date
    days: tuple[Day, ...]  # from the first column's Monday up to today

    @property
    def first(self) -> date:
        return monday(self.today) - timedelta(weeks=WEEKS - 1)

    def at(self, week: int, weekday: int) -> Day | None:
        """The day in column `week` (0 = oldest) and row `weekday` (0 = Monday); None after
        today."""
        index = week * 7 + weekday
        return self.days[index] if index < len(self.days) else None


@dataclass(frozen=True, slots=True)
class TopicBar:
    topic: str
    right: int
    answered: int


@dataclass(frozen=True, slots=True)
class ProgressCard:
    """Everything a member's card shows."""

    locale: Locale
    name: str
    calendar: Calendar
    streak: int
    longest: int
    points: int
    topics: tuple[TopicBar, ...]  # at most TOPICS, the most practised first

    def digest(self) -> str:
        return _digest(self)


@dataclass(frozen=True, slots=True)
class DayBar:
    day: date
    right: int
    wrong: int


@dataclass(frozen=True, slots=True)
class WeekChart:
    """A channel's quick checks per day of one week, right and wrong."""

    locale: Locale
    days: tuple[DayBar, ...]  # Monday to Sunday

    def digest(self) -> str:
        return _digest(self)


def monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]
