"""Quick checks and hints as JSON in the `questions.quiz` and `questions.hints` columns,
and back.

A quick check is always read and written whole, with its item, so one JSON document per item
serves better than three tables. The shape mirrors the front matter:
`[{"question": {"zh", "en"}, "options": [{"text": {...}, "why": {...}, "correct": bool}]}]`.
"""

from __future__ import annotations

import json
from typing import Any

from bot.types import Bilingual, QuickCheck, QuizOption


def dumps(quiz: tuple[QuickCheck, ...]) -> str:
    return json.dumps([_check(q) for q in quiz], ensure_ascii=False, separators=(",", ":"))


def loads(raw: str) -> tuple[QuickCheck, ...]:
    return tuple(
        QuickCheck(_text(q["question"]), tuple(_option(o) for o in q["options"]))
        for q in json.loads(raw)
    )


def dumps_hints(hints: tuple[Bilingual, ...]) -> str:
    return json.dumps([_pair(h) for h in hints], ensure_ascii=False, separators=(",", ":"))


def loads_hints(raw: str) -> tuple[Bilingual, ...]:
    return tuple(_text(h) for h in json.loads(raw))


def _check(q: QuickCheck) -> dict[str, Any]:
    options = [{"text": _pair(o.text), "why": _pair(o.why), "correct": o.correct}
               for o in q.options]  # fmt: skip
    return {"question": _pair(q.question), "options": options}


def _pair(text: Bilingual) -> dict[str, str]:
    return {"zh": text.zh, "en": text.en}


def _text(raw: dict[str, str]) -> Bilingual:
    return Bilingual(raw["zh"], raw["en"])


def _option(raw: dict[str, Any]) -> QuizOption:
    return QuizOption(_text(raw["text"]), _text(raw["why"]), bool(raw["correct"]))
