"""The quick check of a daily post: which one it asks, how its buttons name an answer, and
the channel's tally.

A daily post of an explained question carries one of the question's quick checks (its
`quiz:` front matter). Which one is decided by the post's slot, so every rendering of the
post (the first send, each tally edit, the reveal in the answer) agrees without storing it.
A button's value names the post and the option, `<schedule>:<slot>:<option>`; the slot may
itself contain colons (`now-2026-01-05T09:00:00+00:00`), so it is read from both ends.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from bot.types import Question, QuickCheck

LETTERS = "ABCDEFGH"


@dataclass(frozen=True, slots=True)
class QuizPost:
    schedule_id: int
    slot: str

    def value(self, choice: int) -> str:
        return f"{self.schedule_id}:{self.slot}:{choice}"

    def key(self) -> str:
        return f"{self.schedule_id}:{self.slot}"

    @classmethod
    def parse(cls, post: str) -> QuizPost | None:
        schedule, _, slot = post.partition(":")
        return cls(int(schedule), slot) if schedule.isdigit() and slot else None


@dataclass(frozen=True, slots=True)
class Tally:
    answered: int = 0
    right: int = 0


@dataclass(frozen=True, slots=True)
class QuizView:
    """What a post shows of its quiz: the check, and the channel's tally so far."""

    post: QuizPost
    check: QuickCheck
    tally: Tally = Tally()


def check_for(question: Question, slot: str) -> QuickCheck | None:
    """The quick check a post of `question` in `slot` asks (None: the item has none)."""
    if not question.quiz:
        return None
    digest = hashlib.sha256(f"{question.id}/{slot}".encode()).digest()
    return question.quiz[int.from_bytes(digest[:4], "big") % len(question.quiz)]


def letter(choice: int) -> str:
    return LETTERS[choice] if 0 <= choice < len(LETTERS) else "?"
