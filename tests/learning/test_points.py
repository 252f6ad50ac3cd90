"""Points are a pure function of what happened and when."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.learning import points

POSTED = datetime(2026, 3, 2, 1, 0, tzinfo=UTC)


def after(**delta: float) -> datetime:
    return POSTED + timedelta(**delta)


def test_a_right_answer_scores_more_when_early_and_a_wrong_one_nothing() -> None:
    assert points.quiz(True, POSTED, after(minutes=59)) == 15
    assert points.quiz(True, POSTED, after(hours=1)) == 14
    assert points.quiz(True, POSTED, after(hours=4, minutes=30)) == 11
    assert points.quiz(True, POSTED, after(hours=7)) == 10  # the bonus never goes negative
    assert points.quiz(False, POSTED, after(minutes=1)) == 0


def test_a_daily_solve_scores_most_and_its_bonus_lasts_longer() -> None:
    assert points.daily_solve(POSTED, after(minutes=30)) == 40
    assert points.daily_solve(POSTED, after(hours=3)) == 34
    assert points.daily_solve(POSTED, after(hours=9)) == 30


def test_another_solve_scores_once() -> None:
    assert points.solve(True) == 20 and points.solve(False) == 0


def test_an_act_stamped_before_its_post_counts_as_the_first_hour() -> None:
    assert points.early_bonus(POSTED, after(seconds=-5), 5, 1) == 5
