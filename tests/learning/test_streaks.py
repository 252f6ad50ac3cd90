"""Streak rules on dates: today still running, one frozen day per ISO week, no freeze before
the run began, and the longest run the best run shown at any day."""

from __future__ import annotations

import random
from datetime import date, timedelta

from bot.learning.streaks import Streak, current, longest

MON = date(2026, 3, 2)  # a Monday: ISO week 10


def days(*offsets: int) -> set[date]:
    return {MON + timedelta(days=o) for o in offsets}


def test_nothing_practised_is_no_streak() -> None:
    assert current(set(), MON) == Streak(0)
    assert longest(set()) == 0


def test_today_counts_and_today_not_done_yet_does_not_break_it() -> None:
    assert current(days(0, 1, 2), MON + timedelta(2)) == Streak(3, (), today=True)
    assert current(days(0, 1, 2), MON + timedelta(3)) == Streak(3, (), today=False)


def test_one_missed_day_in_a_week_is_frozen_and_does_not_add() -> None:
    streak = current(days(0, 1, 3, 4), MON + timedelta(4))  # Wednesday missed
    assert streak == Streak(4, (MON + timedelta(2),), today=True)


def test_a_second_miss_in_the_same_week_ends_the_run() -> None:
    # Tuesday frozen, Thursday a second miss: the run ended; Friday begins a new one.
    streak = current(days(0, 2, 4), MON + timedelta(4))
    assert streak == Streak(1, (), today=True)


def test_the_weeks_freeze_is_spent_even_outside_the_current_run() -> None:
    """Practised Mon, Tue, Thu; Wednesday and Friday missed. On Saturday the streak is over:
    Friday is the week's second miss, though Wednesday lay before Thursday's run."""
    assert current(days(0, 1, 3), MON + timedelta(5)) == Streak(0)
    # On Friday itself it was still running, with Wednesday frozen (as it was shown then).
    assert current(days(0, 1, 3), MON + timedelta(4)) == Streak(3, (MON + timedelta(2),))


def test_a_miss_with_no_streak_running_spends_no_freeze() -> None:
    # Week 11: Monday missed before anything ran again, Tuesday practised, Wednesday missed.
    streak = current(days(0, 8, 10), MON + timedelta(10))
    assert streak == Streak(2, (MON + timedelta(9),), today=True)


def test_misses_in_two_weeks_are_each_frozen() -> None:
    # Sunday (week 10) and Monday (week 11) missed, both carried over.
    streak = current(days(4, 5, 8, 9), MON + timedelta(9))
    assert streak.days == 4 and streak.frozen == (MON + timedelta(7), MON + timedelta(6))


def test_two_days_without_practice_since_the_last_end_it_unless_frozen() -> None:
    # Practised Mon, Tue; today is Thursday, Wednesday missed: still alive (frozen).
    assert current(days(0, 1), MON + timedelta(3)).days == 2
    # Friday: Wednesday frozen, Thursday missed in the same week: over.
    assert current(days(0, 1), MON + timedelta(4)) == Streak(0)


def test_a_freeze_never_reaches_before_the_first_practised_day() -> None:
    streak = current(days(3, 4), MON + timedelta(4))
    assert streak == Streak(2, (), today=True)


def test_longest_is_the_best_run_at_any_day() -> None:
    assert longest(days(0, 1, 3, 4)) == 4  # one freeze
    assert longest(days(0, 2, 4, 5, 6, 7)) == 4  # Tue frozen, Thu ended it; Fri to Mon
    assert longest(days(0, 1, 2, 10, 11)) == 3
    assert longest(days(4, 5, 8, 9)) == 4  # Sunday and Monday, two weeks, two freezes


def test_longest_is_the_best_current_streak_over_every_prefix_of_history() -> None:
    """Reading only each stretch's last day gives what reading every day gives."""
    rng = random.Random(7)
    for _ in range(300):
        history = sorted(days(*(d for d in range(rng.randrange(1, 80))
                                if rng.random() < rng.random())))  # fmt: skip
        every_day = max((current(history[: i + 1], d).days for i, d in enumerate(history)),
                        default=0)  # fmt: skip
        assert longest(history) == every_day, history
