"""Streaks: how many days in a row a member has practised, with one freeze day a week.

A day counts when the member did anything that scores (answered a quiz, rated a review,
solved a problem) on that date in their own time zone; the ledger stores that local date
with each act, so the days are given here as dates and no time zone is needed.

The rules, as the days went by (so a streak is always read as it was shown at the time):
- Today not practised yet does not break the streak: it is still running until the day
  ends, so counting ends at yesterday.
- One missed day per ISO week (Monday to Sunday) is frozen: the first missed day of the
  week while a streak is running. The streak carries over it, but the frozen day does not
  add to its length. Any other missed day of that week ends the streak, whether or not the
  frozen day fell inside the current run (a streak begun after one ended does not get the
  week's freeze again). A missed day with no streak running spends nothing.
- So a frozen day always lies between practised days: a freeze never extends a streak into
  days before it began.

`longest` is the best of those runs over the whole history.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterator
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
    end = today if today in days else today - DAY
    last = deque(_runs(days, end), maxlen=1)  # the streak as it stands at `end`
    count, frozen = last[0] if last else (0, ())
    return Streak(count, frozen, today in days) if count else Streak(0)


def longest(practised: Collection[date]) -> int:
    """The most practised days in one run: the best `current` streak at any day, read in
    the same one pass over the days, so a run is read exactly as it was shown while it
    lasted."""
    days = frozenset(practised)
    return max((count for count, _ in _runs(days, max(days, default=date.min))), default=0)


def _runs(days: frozenset[date], end: date) -> Iterator[tuple[int, tuple[date, ...]]]:
    """The streak as it stood at the end of each day from the first practised one to `end`:
    its length and its frozen days, newest first."""
    if not days:
        return
    count, frozen, spent = 0, list[date](), set[tuple[int, int]]()
    day = min(days)
    while day <= end:
        if day in days:
            count += 1
        elif count and _week(day) not in spent:
            spent.add(_week(day))
            frozen.append(day)
        elif count:
            count, frozen = 0, []
        yield count, tuple(reversed(frozen))
        day += DAY


def _week(day: date) -> tuple[int, int]:
    year, week, _ = day.isocalendar()
    return year, week


def frozen_days(practised: Collection[date], end: date) -> frozenset[date]:
    """Every day a streak carried over, up to `end`: the frozen days of each run as it stood
    on its practised days (a freeze the run did not outlive carried nothing)."""
    days = frozenset(practised)
    carried: set[date] = set()
    day = min(days, default=end)
    for _, frozen in _runs(days, end):
        if day in days:
            carried.update(frozen)
        day += DAY
    return frozenset(carried)
