"""Streaks: how many days in a row a member has practised, with one freeze day a week.

A day counts when the member did anything that scores (answered a quiz, rated a review,
solved a problem) on that date in their own time zone; the ledger stores that local date
with each act, so the days are given here as dates and no time zone is needed.

The rules, read backwards from today:
- Today not practised yet does not break the streak: it is still running until the day
  ends, so counting starts from yesterday.
- One missed day per ISO week (Monday to Sunday) is frozen: the streak carries over it, but
  the frozen day does not add to its length. A second miss in the same week ends it.
- A frozen day must lie between practised days: a freeze never extends a streak into days
  before it began.

`longest` is the best of those runs over the whole history.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, timedelta

DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Streak:
    days: int  # practised days in the current run
    frozen: tuple[date, ...] = ()  # missed days the run carried over, newest first
    today: bool = False  # whether today already counts

    @property
    def alive(self) -> bool:
        return self.days > 0


def current(practised: Collection[date], today: date) -> Streak:
    """The run of practised days ending today (or yesterday, if today is not done yet)."""
    days = frozenset(practised)
    if not days:
        return Streak(0)
    first, day = min(days), (today if today in days else today - DAY)
    count, frozen, weeks = 0, list[date](), set[tuple[int, int]]()
    oldest = day
    while day >= first:
        if day in days:
            count, oldest = count + 1, day
        elif _week(day) in weeks:
            break
        else:
            weeks.add(_week(day))
            frozen.append(day)
        day -= DAY
    if not count:
        return Streak(0)
    # Freezes older than the run's first practised day carried nothing.
    return Streak(count, tuple(d for d in frozen if d > oldest), today in days)


def longest(practised: Collection[date]) -> int:
    """The most practised days in one run: the best `current` streak at any practised day,
    so a run is read exactly as it was shown while it lasted. Only the last day of each
    stretch of consecutive days is read: a day inside a stretch shows one day less than the
    day after it."""
    days = frozenset(practised)
    ends = (day for day in days if day + DAY not in days)
    return max((current(days, day).days for day in ends), default=0)


def _week(day: date) -> tuple[int, int]:
    year, week, _ = day.isocalendar()
    return year, week
