"""The `quiz:` front-matter key: quick checks, multiple choice, in both languages.

    quiz:
      - question: {zh: ..., en: ...}
        options:                      # exactly four
          - text: {zh: ..., en: ...}
            correct: true             # on exactly one option
            why: {zh: ..., en: ...}   # why it is right, or what the wrong one mistook

Every text is one non-empty line in each language. Faults name the quick check and option
by number from 1 and sit on the line of the key or item they are about.
"""

from __future__ import annotations

from typing import Any

from bot.content.checker import Checker
from bot.types import Bilingual, QuickCheck, QuizOption

OPTIONS = 4
MIN_CHECKS = 2
CHECK_KEYS = frozenset({"question", "options"})
OPTION_KEYS = frozenset({"text", "why", "correct"})
LANGUAGES = ("zh", "en")
Where = tuple[str | int, ...]


def check_quiz(c: Checker, *, required: bool) -> tuple[QuickCheck, ...]:
    """The quick checks of the file; `required`: a published question needs two or more."""
    if "quiz" not in c.fm.data:
        return ()
    raw = c.fm.data["quiz"]
    if not isinstance(raw, list):
        c.fault("quiz", "'quiz' must be a list of quick checks")
        return ()
    if required and len(raw) < MIN_CHECKS:
        c.fault("quiz", f"a published question needs at least {MIN_CHECKS} quick checks in "
                        f"'quiz' (found {len(raw)})")  # fmt: skip
    checks = [_check_one(c, item, ("quiz", i), f"quiz {i + 1}") for i, item in enumerate(raw)]
    return tuple(q for q in checks if q is not None)


def _check_one(c: Checker, raw: Any, at: Where, name: str) -> QuickCheck | None:
    if not _mapping(c, raw, at, name, CHECK_KEYS):
        return None
    question = _bilingual(c, raw.get("question"), (*at, "question"), f"{name}: 'question'")
    options = _options(c, raw.get("options"), (*at, "options"), name)
    if question is None or options is None:
        return None
    return QuickCheck(question, options)


def _options(c: Checker, raw: Any, at: Where, name: str) -> tuple[QuizOption, ...] | None:
    if not isinstance(raw, list) or len(raw) != OPTIONS:
        count = len(raw) if isinstance(raw, list) else 0
        c.fault_at(at, f"{name}: 'options' must list exactly {OPTIONS} options (found {count})")
        return None
    options = [_option(c, o, (*at, i), f"{name}, option {i + 1}") for i, o in enumerate(raw)]
    if not _one_correct(c, raw, at, name) or None in options:
        return None
    return tuple(o for o in options if o is not None)


def _option(c: Checker, raw: Any, at: Where, name: str) -> QuizOption | None:
    if not _mapping(c, raw, at, name, OPTION_KEYS):
        return None
    text = _bilingual(c, raw.get("text"), (*at, "text"), f"{name}: 'text'")
    why = _bilingual(c, raw.get("why"), (*at, "why"), f"{name}: 'why'")
    correct = raw.get("correct", False)
    if not isinstance(correct, bool):
        c.fault_at((*at, "correct"), f"{name}: 'correct' must be true (or left out)")
        return None
    if text is None or why is None:
        return None
    return QuizOption(text, why, correct)


def _one_correct(c: Checker, raw: list[Any], at: Where, name: str) -> bool:
    marked = [i for i, o in enumerate(raw) if isinstance(o, dict) and o.get("correct") is True]
    if len(marked) == 1:
        return True
    if not marked:
        c.fault_at(at, f"{name}: no option is marked 'correct: true' (exactly one must be)")
    else:
        numbers = ", ".join(str(i + 1) for i in marked)
        c.fault_at((*at, marked[1]), f"{name}: options {numbers} are all marked correct "
                                     "(exactly one must be)")  # fmt: skip
    return False


def _bilingual(c: Checker, raw: Any, at: Where, name: str) -> Bilingual | None:
    if raw is None:
        c.fault_at(at[:-1], f"{name} is missing")
        return None
    if not _mapping(c, raw, at, name, frozenset(LANGUAGES)):
        return None
    zh, en = (_line(c, raw.get(lang), (*at, lang), name) for lang in LANGUAGES)
    return Bilingual(zh, en) if zh is not None and en is not None else None


def _line(c: Checker, raw: Any, at: Where, name: str) -> str | None:
    lang = at[-1]
    if raw is None:
        c.fault_at(at[:-1], f"{name} has no '{lang}'")
        return None
    text = str(raw).strip() if isinstance(raw, str | int | float) else ""
    if not text or "\n" in text:
        c.fault_at(at, f"{name}: '{lang}' must be one non-empty line")
        return None
    return text


def _mapping(c: Checker, raw: Any, at: Where, name: str, keys: frozenset[str]) -> bool:
    if not isinstance(raw, dict):
        c.fault_at(at, f"{name} must be a mapping with {', '.join(sorted(keys))}")
        return False
    unknown = sorted(str(k) for k in raw if k not in keys)
    if unknown:
        c.fault_at(at, f"{name}: unknown key '{unknown[0]}' (allowed: {', '.join(sorted(keys))})")
        return False
    return True
