"""How many points an act scores. Pure: the callers say what happened and when.

- A daily post's quick check answered right: `QUIZ_RIGHT`, plus an early bonus that starts
  at `QUIZ_EARLY` in the first hour after the post went out and drops by one point each
  hour, so answering at once pays a little and answering late still pays. A wrong answer
  scores 0 but is still an act: it keeps the member's streak.
- A daily coding problem solved (accepted) before its answer is posted: `DAILY_SOLVE`, plus
  an early bonus that starts at `DAILY_SOLVE_EARLY` and drops by two points an hour (coding
  takes longer than a click, so the bonus lasts longer too). It counts as the right answer
  of that day's quiz.
- A problem solved at any other time: `SOLVE`, for the member's first accepted solution of
  that problem only; later solutions score 0.

Nothing here prevents counting twice: each act carries a `dedupe` key (the ledger's
`activity.dedupe` is unique), so replays and resubmissions record nothing new.
"""

from __future__ import annotations

from datetime import datetime, timedelta

QUIZ_RIGHT = 10
QUIZ_EARLY = 5  # in the first hour; one point less each hour after
DAILY_SOLVE = 30
DAILY_SOLVE_EARLY = 10  # in the first hour; two points less each hour after
SOLVE = 20
HOUR = timedelta(hours=1)


def quiz(correct: bool, posted: datetime, answered: datetime) -> int:
    """Points for a quick-check answer given at `answered` to a post that went out at `posted`."""
    return QUIZ_RIGHT + early_bonus(posted, answered, QUIZ_EARLY, 1) if correct else 0


def daily_solve(posted: datetime, solved: datetime) -> int:
    """Points for solving the day's coding problem before its answer post."""
    return DAILY_SOLVE + early_bonus(posted, solved, DAILY_SOLVE_EARLY, 2)


def solve(first: bool) -> int:
    """Points for solving a problem outside a daily post: its first accepted solution only."""
    return SOLVE if first else 0


def early_bonus(posted: datetime, at: datetime, start: int, per_hour: int) -> int:
    """`start` in the first hour after `posted`, `per_hour` less for each full hour after,
    never below 0. An act stamped before the post (clock skew) counts as the first hour."""
    hours = max(0, int((at - posted) / HOUR))
    return max(0, start - per_hour * hours)
