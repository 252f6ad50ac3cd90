"""The schema of a content file's front matter, checked field by field.

Validation collects every fault of a file instead of stopping at the first, so an editor
fixes a file in one pass. Each fault carries the line of the key (or list item) it is about.
content/README.md is the format's specification; the keys:

    id          stable slug (a-z, 0-9, '-'); equals the file name (or folder, for problems)
    title       the question as asked, in Chinese
    title_en    its English title; required of new-format items (see below)
    kind        qa | coding
    difficulty  easy | medium | hard
    topics      non-empty list of slugs from the README's topic table (`bot.content.topics`)
    sources     non-empty list of {document, title, company?, role?, round?} ...
    source      ... or `original`, for an item written for the bank: exactly one of the two
    related     ids of other items (resolved across the bank by `bot.content.bank`)
    reviewed    what a second reading checked against public references (`REVIEWS`)
    status      published (default) | draft; a draft is loaded but never served
    quiz        quick checks (`bot.content.quiz`); a published qa item with a quiz has two+
    signature   coding only: the Python function signature a solution must define
    hints       coding only: nudge, approach, near-solution (`bot.content.hints`)

English. The English title and files are required of every published item with a quiz
(every explained question of the bank; a test holds the shipped bank to it for all items with
`ENGLISH_REQUIRED_OF_ALL`). Items written by hand for a test may be Chinese only.

Drafts. A draft (an imported stub, say) is checked for form only: what holds an item back
from publishing (a TODO left in its texts, a topic outside the table, a missing English
version, fewer than two quick checks) is a fault once it says `status: published`.
"""

from __future__ import annotations

import re
from pathlib import Path

from bot.content import topics as topic_table
from bot.content.checker import Checker
from bot.content.frontmatter import FrontMatter
from bot.content.hints import check_hints
from bot.content.quiz import check_quiz
from bot.errors import Fault
from bot.types import Difficulty, Kind, Question, Source, Status

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
REQUIRED = ("id", "title", "kind", "difficulty", "topics")
OPTIONAL = ("title_en", "sources", "source", "related", "reviewed", "status", "quiz",
            "signature", "hints")  # fmt: skip
SOURCE_KEYS = {"document", "title", "company", "role", "round"}
ORIGINAL = "original"
# What a second reading may have checked: numbers; derivations; factual claims; code; API
# behaviour and defaults; version facts; cited papers and docs; links; examples; the 勘误
# section; the English translation against the Chinese.
REVIEWS = ("figures", "formulas", "claims", "code", "apis", "versions", "references", "links",
           "examples", "corrections", "translation")  # fmt: skip
TODO = re.compile(r"\bTODO\b")
STILL_TODO = "a published item still says TODO (finish it, or mark it 'status: draft')"
# True: every published item needs its English title and files, quiz or not (the shipped
# bank is checked so in tests; hand-written test items may be Chinese only).
ENGLISH_REQUIRED_OF_ALL = False


def check(path: Path, fm: FrontMatter, expected_id: str) -> tuple[Question | None, list[Fault]]:
    """Build the `Question` a file describes, or return why it cannot be built."""
    c = Checker(path, fm)
    _unknown_keys(c)
    qid = _check_id(c, expected_id)
    title, title_en = c.text("title"), c.text("title_en", required=False)
    kind, difficulty = c.choice("kind", Kind), c.choice("difficulty", Difficulty)
    status = c.choice("status", Status, Status.PUBLISHED)
    quiz = check_quiz(c, required=status is Status.PUBLISHED and kind is Kind.QA)
    hints = check_hints(c, coding=kind is Kind.CODING,
                        required=status is Status.PUBLISHED and kind is Kind.CODING)  # fmt: skip
    new_format = "quiz" in fm.data
    topics = _check_topics(c, status is Status.PUBLISHED)
    sources = _check_sources(c)
    related = c.slugs("related", "related id", SLUG, required=False)
    _check_reviewed(c)
    signature = _check_signature(c, kind)
    _check_body(c, status)
    if status is Status.PUBLISHED and english_required(new_format) and title_en is None:
        c.missing("title_en")
    if c.faults or None in (qid, title, kind, difficulty, status):
        return None, c.faults
    assert qid and title and kind and difficulty and status  # narrowed by the check above
    question = Question(
        id=qid, title=title, title_en=title_en, kind=kind, difficulty=difficulty,
        topics=topics, sources=sources, answer=fm.body, signature=signature,
        related=related, quiz=quiz, status=status, hints=hints,
    )  # fmt: skip
    return question, []


def english_required(new_format: bool) -> bool:
    """Whether a published item must have its English title and files."""
    return new_format or ENGLISH_REQUIRED_OF_ALL


def todo_line(text: str) -> int | None:
    """The 0-based index of the first line that still says TODO, if any."""
    return next((i for i, line in enumerate(text.split("\n")) if TODO.search(line)), None)


def _unknown_keys(c: Checker) -> None:
    for key in c.fm.data:
        if key not in REQUIRED and key not in OPTIONAL:
            c.fault(key, f"unknown key '{key}' (allowed: {', '.join(REQUIRED + OPTIONAL)})")


def _check_id(c: Checker, expected: str) -> str | None:
    qid = c.text("id")
    if qid is None:
        return None
    if not SLUG.match(qid):
        c.fault("id", f"id '{qid}' is not a slug (lowercase letters, digits and '-')")
    elif qid != expected:
        c.fault("id", f"id '{qid}' must match its file or folder name '{expected}'")
    return qid


def _check_topics(c: Checker, published: bool) -> tuple[str, ...]:
    found = c.slugs("topics", "topic", SLUG, required=True)
    for topic in found:
        if topic in topic_table.SLUGS or not published:
            continue
        known = topic_table.resolve(topic)
        hint = f"; did you mean '{known.slug}'?" if known else ""
        c.fault("topics", f"topic '{topic}' is not in the topic table of content/README.md"
                          f"{hint}", found.index(topic))  # fmt: skip
    return found


def _check_sources(c: Checker) -> tuple[Source, ...]:
    if "source" in c.fm.data:
        if c.fm.data["source"] != ORIGINAL:
            c.fault("source", f"'source' can only be '{ORIGINAL}'; a report goes in 'sources'")
        if "sources" in c.fm.data:
            c.fault("source", f"give either 'sources' or 'source: {ORIGINAL}', not both")
        return ()
    if "sources" not in c.fm.data:
        c.faults.append(Fault(c.path, 1, f"missing 'sources' (or 'source: {ORIGINAL}')"))
    return _report_sources(c)


def _report_sources(c: Checker) -> tuple[Source, ...]:
    sources: list[Source] = []
    for i, item in enumerate(c.items("sources", required=False)):
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


def _check_reviewed(c: Checker) -> None:
    seen: set[object] = set()
    for i, item in enumerate(c.items("reviewed", required=False)):
        if item not in REVIEWS:
            c.fault("reviewed", f"reviewed: {item!r} is not one of {', '.join(REVIEWS)}", i)
        elif item in seen:
            c.fault("reviewed", f"reviewed: '{item}' is listed twice", i)
        seen.add(item)


def _check_signature(c: Checker, kind: Kind | None) -> str | None:
    signature = c.text("signature", required=False)
    if kind is Kind.CODING and signature is None and "signature" not in c.fm.data:
        c.faults.append(Fault(c.path, 1, "a coding problem needs a 'signature'"))
    if signature is not None and not signature.startswith("def "):
        c.fault("signature", "signature must be a Python 'def ...' line")
    if kind is Kind.QA and signature is not None:
        c.fault("signature", "only coding problems have a signature")
    return signature


def _check_body(c: Checker, status: Status | None) -> None:
    if not c.fm.body.strip():
        c.faults.append(Fault(c.path, c.fm.body_line, "the body (the explanation) is empty"))
        return
    todo = todo_line(c.fm.body)
    if status is Status.PUBLISHED and todo is not None:
        c.faults.append(Fault(c.path, c.fm.body_line + todo, STILL_TODO))
