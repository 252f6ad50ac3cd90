"""Whether the bank's quick checks give their answer away by its length.

A reader who half-knows a topic picks the longest option, because the right one is so often
the one written with care. Each reader sees one language, so the measure is taken per
language: a quick check gives its answer away in a language when its right option is
strictly longer (in characters) than each of the other three there. The bank's figure is
its worse language, and validation fails when that exceeds `BOUND` of the quick checks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from bot.errors import Fault
from bot.types import Question, QuickCheck

BOUND = Fraction(1, 3)
LANGUAGES = {"zh": "Chinese", "en": "English"}


def right_is_longest(check: QuickCheck, lang: str) -> bool:
    """True when the right option is strictly the longest of the four in `lang`."""
    right = len(getattr(check.options[check.correct_index()].text, lang))
    others = (len(getattr(o.text, lang)) for o in check.options if not o.correct)
    return all(right > length for length in others)


@dataclass(frozen=True, slots=True)
class Giveaway:
    """How many of `checks` quick checks give the answer away, per language."""

    checks: int
    longest: dict[str, int]

    @property
    def worst(self) -> tuple[str, int]:
        return max(self.longest.items(), key=lambda item: item[1])

    @property
    def too_many(self) -> bool:
        return self.worst[1] > BOUND * self.checks

    def summary(self) -> str:
        lang, count = self.worst
        share = f"{count / self.checks:.0%}" if self.checks else "0%"
        return (f"quick checks: right option longest in {count} of {self.checks} ({share}, "
                f"in {LANGUAGES[lang]}; at most a third allowed)")  # fmt: skip

    def as_json(self) -> dict[str, object]:
        return {"checks": self.checks, "right_longest": self.longest,
                "bound": str(BOUND), "too_many": self.too_many}  # fmt: skip


def measure(questions: Iterable[Question]) -> Giveaway:
    """The figure for every quick check of `questions`."""
    checks = [c for q in questions for c in q.quiz]
    longest = {lang: sum(right_is_longest(c, lang) for c in checks) for lang in LANGUAGES}
    return Giveaway(len(checks), longest)


def faults(figure: Giveaway, root: Path) -> list[Fault]:
    """A fault of the whole bank (at `root`, line 0: no single file) when too many give away."""
    return [Fault(root, 0, figure.summary())] if figure.too_many else []
