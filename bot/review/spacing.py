"""How fsrs is configured for a chat study group, and the one function that reviews a card.

A chat group meets once a day (the daily post, a member's morning `/review`), not every ten
minutes as a flashcard app does. fsrs's default learning steps (1 and 10 minutes) would make
a card "due" again while the member is still reading, and then wait a whole day anyway for
the next session. So a new or lapsed card has a single step of one day: Again brings it back
at tomorrow's session, Hard a day and a half later (fsrs's 1.5x of a lone step), Good and Easy
leave learning at once for the interval fsrs computes from stability. Relearning a forgotten
card is the same single day.

Fuzzing spreads intervals of three days or more by a few percent so a batch of cards learned
together does not stay together. fsrs fuzzes with the module-level `random()`, which cannot
be injected; so fsrs runs with fuzzing off and the same ranges (fsrs's `FUZZ_RANGES`) are
applied here with the injected `random.Random`: a seeded one makes every due date
reproducible in tests, without touching fsrs.
"""

from __future__ import annotations

import enum
import functools
import random
from datetime import UTC, datetime, timedelta

from fsrs import Card, Rating, Scheduler, State
from fsrs.scheduler import FUZZ_RANGES

LEARNING_STEPS = (timedelta(days=1),)
RELEARNING_STEPS = (timedelta(days=1),)
MIN_RETENTION, MAX_RETENTION = 0.7, 0.97  # the bounds the schema's CHECK holds too
FUZZ_FROM_DAYS = 2.5  # fsrs's own threshold: shorter intervals are never fuzzed


class Recall(enum.IntEnum):
    """A member's rating of a card, as fsrs numbers them (and the `reviews` table stores)."""

    AGAIN = 1
    HARD = 2
    GOOD = 3
    EASY = 4


@functools.lru_cache(maxsize=32)
def scheduler(retention: float) -> Scheduler:
    """The fsrs scheduler for a workspace's desired retention (one per value, shared)."""
    return Scheduler(desired_retention=retention, learning_steps=LEARNING_STEPS,
                     relearning_steps=RELEARNING_STEPS, enable_fuzzing=False)  # fmt: skip


def new_card(at: datetime) -> Card:
    """A card never reviewed. Its id and due time are given, since fsrs's defaults read the
    wall clock (and sleep a millisecond to keep ids apart)."""
    return Card(card_id=int(at.timestamp() * 1000), due=at.astimezone(UTC))


def review(card: Card, recall: Recall, at: datetime, retention: float,
           rng: random.Random) -> Card:  # fmt: skip
    """`card` after a review rated `recall` at `at`, its next due date fuzzed with `rng`."""
    when = at.astimezone(UTC)
    reviewed, _ = scheduler(retention).review_card(card, Rating(int(recall)), when)
    if reviewed.state is State.Review:
        reviewed.due = when + _fuzzed(reviewed.due - when, rng)
    return reviewed


def _fuzzed(interval: timedelta, rng: random.Random) -> timedelta:
    days = interval.days
    if days < FUZZ_FROM_DAYS:
        return interval
    delta = 1.0 + sum(r["factor"] * max(min(float(days), r["end"]) - r["start"], 0.0)
                      for r in FUZZ_RANGES)  # fmt: skip
    low, high = max(2, round(days - delta)), round(days + delta)
    return timedelta(days=min(high, round(rng.random() * (high - low + 1) + low)))
