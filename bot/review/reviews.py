"""Reviewing cards: what a quiz answer or a rating does to a member's card, and which cards
are due. The one service the commands call; it owns the fsrs configuration (`spacing`) and
the workspace's desired retention, and the store keeps each review one transaction."""

from __future__ import annotations

import random

from fsrs import Card

from bot.ports import Clock
from bot.review.spacing import Recall, new_card, review
from bot.store.cards import CardStore, Due, Held, Source
from bot.store.preferences import Preferences
from bot.types import User


class Reviews:
    def __init__(self, cards: CardStore, prefs: Preferences, clock: Clock,
                 rng: random.Random) -> None:  # fmt: skip
        self.cards = cards
        self._prefs = prefs
        self._clock = clock
        self._rng = rng

    async def quiz_answered(self, user: User, workspace: str | None, question_id: str,
                            correct: bool, expected: int | None = None) -> Held | None:  # fmt: skip
        """An answer to a quick check reviews the member's card: right is Good, wrong Again.
        A daily post's quiz keeps its own ledger of first answers, so it checks no count; a
        review's quick check passes the count its buttons were shown with (`rate`)."""
        recall = Recall.GOOD if correct else Recall.AGAIN
        return await self._review(user, workspace, question_id, recall, Source.QUIZ, expected)

    async def rate(self, user: User, workspace: str | None, question_id: str, recall: Recall,
                   expected: int) -> Held | None:  # fmt: skip
        """A rating button: applied only if the card has had `expected` reviews (else None)."""
        return await self._review(user, workspace, question_id, recall, Source.RATING, expected)

    async def reviews_of(self, user: User, question_id: str) -> int:
        held = await self.cards.held(user, question_id)
        return held.reviews if held is not None else 0

    async def due(self, user: User, limit: int = 50) -> list[Due]:
        return await self.cards.due(user, self._clock.now(), limit)

    async def next_due(self, user: User) -> Due | None:
        return await self.cards.next_due(user)

    async def _review(self, user: User, workspace: str | None, question_id: str,
                      recall: Recall, source: Source,
                      expected: int | None) -> Held | None:  # fmt: skip
        retention = await self._prefs.retention(user.platform, workspace)
        at = self._clock.now()

        def update(card: Card | None) -> Card:
            return review(card or new_card(at), recall, at, retention, self._rng)

        return await self.cards.review(user, question_id, int(recall), source, at, update,
                                       expected)  # fmt: skip
