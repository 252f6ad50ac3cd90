"""The spans of time boards count over, as UTC instants of local midnights.

A week is an ISO week, Monday 00:00 to the next Monday 00:00, in the zone given (a
channel's schedule's, else UTC); a month is a calendar month there. Midnight is found with
`occurrence`, so a zone whose clocks jump at midnight still gets a well-defined instant.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.schedule.times import occurrence

PERIODS = ("week", "month", "all")
WEEK = timedelta(days=7)


@dataclass(frozen=True, slots=True)
class Span:
    start: datetime | None  # None: since the beginning
    end: datetime | None  # None: up to now


def since(period: str, now: datetime, zone: ZoneInfo) -> Span:
    """The current `period` (one of PERIODS) up to now."""
    today = now.astimezone(zone).date()
    if period == "week":
        return Span(midnight(monday(today), zone), None)
    if period == "month":
        return Span(midnight(today.replace(day=1), zone), None)
    return Span(None, None)


def week_before(instant: datetime, zone: ZoneInfo) -> tuple[Span, str]:
    """The whole ISO week before the one `instant` falls in, and its name (`2026-W10`)."""
    this_monday = monday(instant.astimezone(zone).date())
    last_monday = this_monday - WEEK
    year, week, _ = last_monday.isocalendar()
    return Span(midnight(last_monday, zone), midnight(this_monday, zone)), f"{year}-W{week:02d}"


def monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def midnight(day: date, zone: ZoneInfo) -> datetime:
    return occurrence(day, time(0), zone)
