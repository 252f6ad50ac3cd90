"""A coding problem's three hints, revealed one at a time: a nudge, an approach, and a
near-solution. Each is a text in both languages and may run over several lines (a
near-solution can show a few lines of code).

    hints:
      - zh: 先想想：暴力做法的复杂度是多少？
        en: "First: what does the brute force cost?"
      - {zh: ..., en: ...}
      - {zh: ..., en: ...}

A published problem has exactly three, in that order; an explained question has none.
"""

from __future__ import annotations

from typing import Any

from bot.content.checker import Checker
from bot.types import Bilingual

LEVELS = ("nudge", "approach", "near-solution")
LANGUAGES = ("zh", "en")


def check_hints(c: Checker, *, coding: bool, required: bool) -> tuple[Bilingual, ...]:
    """The file's hints; `required`: a published coding problem has exactly three."""
    raw = c.fm.data.get("hints")
    if raw is None:
        if required:
            c.missing("hints")
        return ()
    if not coding:
        c.fault("hints", "only coding problems have hints")
        return ()
    if not isinstance(raw, list) or (required and len(raw) != len(LEVELS)):
        c.fault("hints", f"'hints' is a list of exactly {len(LEVELS)}: "
                         f"{', '.join(LEVELS)} (each with zh and en)")  # fmt: skip
        return ()
    hints = [_hint(c, item, i) for i, item in enumerate(raw)]
    return tuple(h for h in hints if h is not None)


def _hint(c: Checker, raw: Any, index: int) -> Bilingual | None:
    name = f"hint {index + 1} ({LEVELS[index] if index < len(LEVELS) else 'extra'})"
    if not isinstance(raw, dict) or set(raw) != set(LANGUAGES):
        c.fault("hints", f"{name} must be a mapping with zh and en", index)
        return None
    texts = [raw[lang].strip() if isinstance(raw[lang], str) else "" for lang in LANGUAGES]
    for lang, text in zip(LANGUAGES, texts, strict=True):
        if not text:
            c.fault_at(("hints", index, lang), f"{name}: '{lang}' must be non-empty text")
    return Bilingual(*texts) if all(texts) else None
