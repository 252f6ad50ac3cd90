"""The schema of a content file's front matter, checked field by field.

Validation collects every fault of a file instead of stopping at the first, so an editor
fixes a file in one pass. Each fault carries the line of the key (or list item) it is about.

Front matter keys:

    id          stable slug (a-z, 0-9, '-'); equals the file name (or folder, for problems)
    title       the question as asked, in the report's language
    title_en    optional English title
    kind        qa | coding
    difficulty  easy | medium | hard
    topics      non-empty list of topic slugs
    sources     non-empty list of {document, title, company?, role?, round?}
    signature   coding only: the Python function signature a solution must define
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, TypeVar

from bot.content.frontmatter import FrontMatter
from bot.errors import Fault
from bot.types import Difficulty, Kind, Question, Source

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
REQUIRED = ("id", "title", "kind", "difficulty", "topics", "sources")
OPTIONAL = ("title_en", "signature")
SOURCE_KEYS = {"document", "title", "company", "role", "round"}
E = TypeVar("E", Kind, Difficulty)


class _Checker:
    """Accumulates faults for one file while reading its front matter."""

    def __init__(self, path: Path, fm: FrontMatter) -> None:
        self.path, self.fm, self.faults = path, fm, list[Fault]()

    def fault(self, key: str, message: str, index: int | None = None) -> None:
        self.faults.append(Fault(self.path, self.fm.line_of(key, index), message))

    def text(self, key: str, *, required: bool = True) -> str | None:
        value = self.fm.data.get(key)
        if value is None:
            if required:
                self.faults.append(Fault(self.path, 1, f"missing required key '{key}'"))
            return None
        if not isinstance(value, str) or not value.strip():
            self.fault(key, f"'{key}' must be a non-empty string")
            return None
        return value.strip()

    def choice(self, key: str, enum: type[E]) -> E | None:
        raw = self.text(key)
        if raw is None:
            return None
        try:
            return enum(raw)
        except ValueError:
            allowed = ", ".join(e.value for e in enum)
            self.fault(key, f"'{key}' is '{raw}'; expected one of: {allowed}")
            return None

    def items(self, key: str) -> list[Any]:
        value = self.fm.data.get(key)
        if value is None:
            self.faults.append(Fault(self.path, 1, f"missing required key '{key}'"))
            return []
        if not isinstance(value, list) or not value:
            self.fault(key, f"'{key}' must be a non-empty list")
            return []
        return value


def check(path: Path, fm: FrontMatter, expected_id: str) -> tuple[Question | None, list[Fault]]:
    """Build the `Question` a file describes, or return why it cannot be built."""
    c = _Checker(path, fm)
    for key in fm.data:
        if key not in REQUIRED and key not in OPTIONAL:
            c.fault(key, f"unknown key '{key}' (allowed: {', '.join(REQUIRED + OPTIONAL)})")
    qid = _check_id(c, expected_id)
    title, title_en = c.text("title"), c.text("title_en", required=False)
    kind, difficulty = c.choice("kind", Kind), c.choice("difficulty", Difficulty)
    topics = _check_topics(c)
    sources = _check_sources(c)
    signature = _check_signature(c, kind)
    if not fm.body.strip():
        c.faults.append(Fault(path, fm.body_line, "the body (the explanation) is empty"))
    if c.faults or None in (qid, title, kind, difficulty):
        return None, c.faults
    assert qid and title and kind and difficulty  # narrowed by the check above
    question = Question(
        id=qid, title=title, title_en=title_en, kind=kind, difficulty=difficulty,
        topics=topics, sources=sources, answer=fm.body, signature=signature,
    )  # fmt: skip
    return question, []


def _check_id(c: _Checker, expected: str) -> str | None:
    qid = c.text("id")
    if qid is None:
        return None
    if not SLUG.match(qid):
        c.fault("id", f"id '{qid}' is not a slug (lowercase letters, digits and '-')")
    elif qid != expected:
        c.fault("id", f"id '{qid}' must match its file or folder name '{expected}'")
    return qid


def _check_topics(c: _Checker) -> tuple[str, ...]:
    topics: list[str] = []
    for i, topic in enumerate(c.items("topics")):
        if not isinstance(topic, str) or not SLUG.match(topic):
            c.fault("topics", f"topic {topic!r} is not a slug", i)
        elif topic in topics:
            c.fault("topics", f"topic '{topic}' is listed twice", i)
        else:
            topics.append(topic)
    return tuple(topics)


def _check_sources(c: _Checker) -> tuple[Source, ...]:
    sources: list[Source] = []
    for i, item in enumerate(c.items("sources")):
        if not isinstance(item, dict):
            c.fault("sources", "each source must be a mapping with 'document' and 'title'", i)
            continue
        problems = [f"unknown key '{k}'" for k in sorted(set(item) - SOURCE_KEYS)]
        problems += [f"missing '{k}'" for k in ("document", "title") if k not in item]
        if problems:
            c.fault("sources", f"source {i + 1}: {', '.join(problems)}", i)
            continue
        values = {k: str(v).strip() for k, v in item.items() if v is not None}
        sources.append(Source(**values))
    return tuple(sources)


def _check_signature(c: _Checker, kind: Kind | None) -> str | None:
    signature = c.text("signature", required=False)
    if kind is Kind.CODING and signature is None and "signature" not in c.fm.data:
        c.faults.append(Fault(c.path, 1, "a coding problem needs a 'signature'"))
    if signature is not None and not signature.startswith("def "):
        c.fault("signature", "signature must be a Python 'def ...' line")
    if kind is Kind.QA and signature is not None:
        c.fault("signature", "only coding problems have a signature")
    return signature
