"""A channel's daily schedule as a value object, and the small languages people type to set one.

    /schedule set 09:00 Asia/Shanghai days:mon-fri coding:wed topic:distributed answer:+4h

- days, coding: `daily`, `weekdays`, `weekends`, `none`, or day names and ranges
  (`mon-fri`, `mon,wed,fri`); coding days are posting days that get a coding problem.
- answer: a delay after the question (`+4h`, `+90m`, `+1h30m`; the `+` may be left out) or a
  local time (`18:00`; earlier than the post time means the next day).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.schedule.times import DailySlot, occurrence, parse_local_time
from bot.types import ChannelRef, Kind, Locale

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_NAMED_SETS = {
    "daily": frozenset(range(7)), "every": frozenset(range(7)), "all": frozenset(range(7)),
    "weekdays": frozenset(range(5)), "weekends": frozenset({5, 6}), "none": frozenset(),
}  # fmt: skip
_DELAY = re.compile(r"^\+?(?:(\d{1,2})h)?(?:(\d{1,4})m)?$")  # `2h` reads as `+2h`
DEFAULT_ANSWER = timedelta(hours=8)


def parse_days(text: str) -> frozenset[int]:
    """Weekday numbers (Monday 0) from `mon-fri`, `mon,wed`, `weekdays`...; ValueError if bad."""
    text = text.strip().lower()
    if text in _NAMED_SETS:
        return _NAMED_SETS[text]
    days: set[int] = set()
    for part in text.split(","):
        first, _, last = part.strip().partition("-")
        start, end = _day(first), _day(last or first)
        days.update((start + i) % 7 for i in range((end - start) % 7 + 1))
    return frozenset(days)


def _day(name: str) -> int:
    key = name.strip()[:3]
    if key not in DAY_NAMES:
        raise ValueError(f"'{name}' is not a day (use mon, tue, ... sun, or weekdays, daily)")
    return DAY_NAMES.index(key)


def format_days(days: frozenset[int]) -> str:
    for name in ("daily", "weekdays", "weekends", "none"):
        if days == _NAMED_SETS[name]:
            return name
    return ",".join(DAY_NAMES[d] for d in sorted(days))


@dataclass(frozen=True, slots=True)
class AnswerTiming:
    """When the explanation follows: a delay after the question, or a local time of day."""

    delay: timedelta | None = None
    at: time | None = None

    @classmethod
    @functools.lru_cache(maxsize=1024)
    def parse(cls, text: str) -> AnswerTiming:
        text = text.strip().lower()
        match = _DELAY.match(text)
        if match and (match[1] or match[2]):
            delay = timedelta(hours=int(match[1] or 0), minutes=int(match[2] or 0))
            if timedelta(minutes=1) <= delay <= timedelta(hours=23, minutes=59):
                return cls(delay=delay)
            raise ValueError("the answer delay must be between +1m and +23h59m")
        if text.startswith("+"):
            raise ValueError(f"'{text}' is not a delay like +4h, +90m or +1h30m")
        return cls(at=parse_local_time(text))

    def __str__(self) -> str:
        if self.at is not None:
            return self.at.strftime("%H:%M")
        minutes = int((self.delay or DEFAULT_ANSWER).total_seconds() // 60)
        hours, rest = divmod(minutes, 60)
        return "+" + (f"{hours}h" if hours else "") + (f"{rest}m" if rest else "")

    def due(self, question_due: datetime, zone: ZoneInfo) -> datetime:
        """When the answer to a question due at `question_due` is due."""
        if self.at is None:
            return question_due + (self.delay or DEFAULT_ANSWER)
        day = question_due.astimezone(zone).date()
        instant = occurrence(day, self.at, zone)
        return instant if instant > question_due else occurrence(day + timedelta(1), self.at, zone)


@dataclass(frozen=True, slots=True)
class Schedule:
    id: int
    channel: ChannelRef
    post_at: time
    zone: ZoneInfo
    days: frozenset[int]
    coding_days: frozenset[int]
    answer: AnswerTiming
    topic: str | None = None
    locale: Locale = Locale.EN  # the posts' language
    # Posts in both languages: titles and the quick check also in the other one; long texts
    # (statements, explanations) stay in `locale`, with the button that shows the other.
    bilingual: bool = False
    paused: bool = False
    pause_reason: str | None = None
    weekly_summary: bool = False  # a summary of the past week, Mondays at the post time

    @property
    def slot(self) -> DailySlot:
        return DailySlot(self.post_at, self.zone, self.days | self.coding_days)

    @property
    def summary_slot(self) -> DailySlot:
        """When the weekly summary goes out: Mondays, at the post time, in the zone."""
        return DailySlot(self.post_at, self.zone, frozenset({0}))

    def kind_on(self, instant: datetime) -> Kind:
        weekday = instant.astimezone(self.zone).weekday()
        return Kind.CODING if weekday in self.coding_days else Kind.QA

    def local_date(self, instant: datetime) -> str:
        return instant.astimezone(self.zone).date().isoformat()


@dataclass(frozen=True, slots=True)
class Cycle:
    """Where a schedule is in its pool of one kind: the round it is in, the questions asked
    in it, and the one asked last (never first in the next round)."""

    number: int = 0
    asked: frozenset[str] = frozenset()
    last: str | None = None
