"""Review cards on both engines: a review is one transaction that accepts only the rating
button's expected count, and due cards are listed most overdue first."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card

from bot.store.cards import CardStore, Due, Source
from bot.store.db import Database
from bot.types import User
from tests.store.backends.rows import due_at

ALICE = User("test", "u-alice", "Alice")
BOB = User("test", "u-bob", "Bob")
NOW = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


async def test_a_review_counts_and_a_stale_button_changes_nothing(backend: Database) -> None:
    cards = CardStore(backend)
    assert await cards.held(ALICE, "q1") is None
    first = await cards.review(ALICE, "q1", 3, Source.QUIZ, NOW, due_at(NOW + timedelta(days=1)))
    assert first is not None and first.reviews == 1
    assert first.card.due == NOW + timedelta(days=1)
    stale = await cards.review(ALICE, "q1", 4, Source.RATING, NOW, due_at(NOW), expected=0)
    assert stale is None  # the button was shown before the quiz reviewed the card
    second = await cards.review(ALICE, "q1", 4, Source.RATING, NOW, due_at(NOW), expected=1)
    assert second is not None and second.reviews == 2
    held = await cards.held(ALICE, "q1")
    assert held is not None and held.reviews == 2 and held.card.due == NOW
    assert await cards.held(BOB, "q1") is None


async def test_a_failed_update_writes_neither_card_nor_rating(backend: Database) -> None:
    cards = CardStore(backend)

    def broken(card: Card | None) -> Card:
        raise RuntimeError("fsrs refused")

    with pytest.raises(RuntimeError):
        await cards.review(ALICE, "q1", 3, Source.RATING, NOW, broken)
    assert await cards.held(ALICE, "q1") is None
    row = await backend.fetch_one("SELECT count(*) FROM reviews")
    assert row is not None and int(row[0]) == 0


async def test_due_cards_come_most_overdue_first(backend: Database) -> None:
    cards = CardStore(backend)
    for qid, days in (("q3", -1), ("q1", -3), ("q2", -1), ("q4", 2)):
        await cards.review(ALICE, qid, 3, Source.QUIZ, NOW, due_at(NOW + timedelta(days=days)))
    await cards.review(BOB, "q9", 3, Source.QUIZ, NOW, due_at(NOW - timedelta(days=9)))
    assert await cards.due(ALICE, NOW) == [
        Due("q1", NOW - timedelta(days=3)),
        Due("q2", NOW - timedelta(days=1)),  # same time: by question
        Due("q3", NOW - timedelta(days=1)),
    ]
    assert await cards.due(ALICE, NOW, limit=1) == [Due("q1", NOW - timedelta(days=3))]
    assert await cards.due(ALICE, NOW - timedelta(days=5)) == []
    assert await cards.next_due(ALICE) == Due("q1", NOW - timedelta(days=3))
    assert await cards.next_due(User("test", "nobody", "N")) is None
