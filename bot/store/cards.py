"""Each member's fsrs cards (`cards`: the card's JSON, its `due` copied out to be indexed)
and every review of them (`reviews`).

A review is one transaction: the card written and the rating logged together. A rating
button carries the number of reviews its card had when the button was shown; `review`
accepts it only while that is still the number, so a second press, a replayed interaction
or a button left over from before a quiz answer reviewed the card all change nothing.
Times are UTC ISO strings, so they compare as text in the index.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from fsrs import Card

from bot.store.db import Database
from bot.types import User


class Source(enum.StrEnum):
    """What reviewed a card: a quiz answer or a rating button."""

    QUIZ = "quiz"
    RATING = "rating"


@dataclass(frozen=True, slots=True)
class Held:
    """A member's card for one question, and how many times it has been reviewed."""

    card: Card
    reviews: int


@dataclass(frozen=True, slots=True)
class Due:
    question_id: str
    due: datetime


def stamp(at: datetime) -> str:
    return at.astimezone(UTC).isoformat(timespec="seconds")


class CardStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def held(self, user: User, question_id: str) -> Held | None:
        return await self._held(user, question_id)  # one statement: card and count agree

    async def review(self, user: User, question_id: str, rating: int, source: Source,
                     at: datetime, update: Callable[[Card | None], Card],
                     expected: int | None = None) -> Held | None:  # fmt: skip
        """Apply `update` to the member's card (None: they have none yet) and log the rating,
        in one transaction. With `expected`, only if the card has had exactly that many
        reviews; otherwise change nothing and return None."""
        async with self._db.transaction():
            held = await self._held(user, question_id)
            count = held.reviews if held is not None else 0
            if expected is not None and expected != count:
                return None
            card = update(held.card if held is not None else None)
            await self._write(user, question_id, card)
            await self._db.execute(
                """INSERT INTO reviews (platform, user_id, question_id, rating, source,
                                        reviewed_at) VALUES (?, ?, ?, ?, ?, ?)""",
                (user.platform, user.id, question_id, rating, source.value, stamp(at)),
            )
            return Held(card, count + 1)

    async def due(
        self, user: User, by: datetime, limit: int = 50, *, shared_only: bool = False
    ) -> list[Due]:
        """The member's cards due by `by`, the most overdue first; with `shared_only`, the
        shared bank's only (a direct message is in no server, so it names no server's own
        items: those are dealt by `/review` in their server)."""
        shared = " AND question_id IN (SELECT id FROM questions WHERE server IS NULL)"
        rows = await self._db.fetch_all(
            "SELECT question_id, due FROM cards WHERE platform = ? AND user_id = ? AND due <= ?"
            f"{shared if shared_only else ''} ORDER BY due, question_id LIMIT ?",
            (user.platform, user.id, stamp(by), limit),
        )
        return [Due(str(r[0]), datetime.fromisoformat(r[1])) for r in rows]

    async def next_due(self, user: User) -> Due | None:
        row = await self._db.fetch_one(
            "SELECT question_id, due FROM cards WHERE platform = ? AND user_id = ? "
            "ORDER BY due, question_id LIMIT 1",
            (user.platform, user.id),
        )
        return Due(str(row[0]), datetime.fromisoformat(row[1])) if row else None

    async def _held(self, user: User, question_id: str) -> Held | None:
        row = await self._db.fetch_one(
            """SELECT card, (SELECT count(*) FROM reviews r WHERE r.platform = c.platform
                             AND r.user_id = c.user_id AND r.question_id = c.question_id)
               FROM cards c WHERE platform = ? AND user_id = ? AND question_id = ?""",
            (user.platform, user.id, question_id),
        )
        return Held(Card.from_json(row[0]), int(row[1])) if row else None

    async def _write(self, user: User, question_id: str, card: Card) -> None:
        await self._db.execute(
            """INSERT INTO cards (platform, user_id, question_id, card, due) VALUES (?, ?, ?, ?, ?)
               ON CONFLICT (platform, user_id, question_id)
               DO UPDATE SET card = excluded.card, due = excluded.due""",
            (user.platform, user.id, question_id, card.to_json(), stamp(card.due)),
        )
