"""Reading a quick check as members see it: which letter shows which option, and which
place a button says it stands for.

Tests find the right option by its text where a post or a review prompt shows it, never by
where the file lists it (the bank lists the right one first; posts shuffle them). The text
may be a reply's Markdown body or what an adapter rendered of it (`**B.**` or `*B.*`). A
button carries the place its option is shown at (0 for A), never its index in the file."""

from __future__ import annotations

import re

from bot.quiz import LETTERS
from bot.types import Action, Locale, QuickCheck

_OPTION = re.compile(r"\*{1,2}([A-H])\.\*{1,2} ([^\n]+)")


def letters(text: str) -> dict[str, str]:
    """Each option's text, to the letter it is shown under."""
    return {m[2].strip(): m[1] for m in _OPTION.finditer(text)}


def right_letter(text: str, check: QuickCheck, lang: Locale = Locale.EN) -> str:
    """The letter `text` shows the right option of `check` under."""
    return letters(text)[check.options[check.correct_index()].text.in_(lang)]


def right_position(text: str, check: QuickCheck, lang: Locale = Locale.EN) -> int:
    """Where the right option is shown: 0 for A, 1 for B..."""
    return LETTERS.index(right_letter(text, check, lang))


def carried(button: Action) -> int:
    """The place a quiz or review-check button says its option is shown at (0 for A)."""
    return int(button.invocation()[1]["choice"])
