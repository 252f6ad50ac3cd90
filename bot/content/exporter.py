"""A server's approved items as files of the bank's own format: plan first, then write.

    plan_export(root, items)     -> ExportPlan: for each item, its bank id, its status, what
                                 holds it back from publishing, and the full text of its files
    write_export(plan, out)      writes those files under `out`, laid out as a content dir

`out` is meant to be copied into the content directory (or used as one beside it) and then
checked by `studybot content validate`, so every choice here is one the schema accepts:

Ids. A server item's id is `s.<slug>`; its bank id is the slug, made unique against the
bank under `root` and the export itself as the importer does (`bot.content.importer.unique`:
"-2", "-3" ...). An id that is somehow not a slug is replaced by one of its title
(`slug_for`), and every path written is checked to stay under `out`: no id names a file
elsewhere. Titles never name files.

Status. An item is written `status: draft` while anything the bank asks of a published item
is missing (listed in `ExportedItem.missing`): an explanation (its report gave none), quick
checks (two, for a qa item) or hints and a real signature (a coding problem), its English
(title and texts), and a second reading (`reviewed`, which the export never writes: nobody
has checked a member's text against public references yet, and the schema takes the key
absent or non-empty, never `[]`). A draft may say TODO;
the placeholders say what to write.

Sources: the report the item was drafted from, then the other reports of its server that
asked it (`bot.store.exports`). `related` keeps the ids that resolve (the bank's, or items of
the same export under their new ids); others are dropped.

Pure and blocking (it reads the bank's file names, and writes files): an async caller runs
it in a thread.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.content import frontmatter
from bot.content import topics as topic_table
from bot.content.bank import (
    ENGLISH_SUFFIX,
    EXPLANATION_FILE,
    PROBLEM_FILE,
    PROBLEMS_DIR,
    QUESTIONS_DIR,
    content_files,
)
from bot.content.hints import LEVELS
from bot.content.importer import (
    EXPLANATION_TODO,
    QA_TODO,
    SIGNATURE,
    Write,
    slug_for,
    source_dict,
    unique,
)
from bot.content.quiz import MIN_CHECKS
from bot.content.schema import SLUG
from bot.store.exports import ServerItem
from bot.types import Bilingual, Kind, Question, QuickCheck, Status

SERVER_PREFIX = "s."
MISSING_EXPLANATION = "explanation"
MISSING_QUIZ = "quick checks"
MISSING_HINTS = "hints and signature"
MISSING_ENGLISH = "English"
MISSING_REVIEW = "review"
MISSING_TOPICS = "topics"
_FENCE = re.compile(r"^\s*---")


class UnsafePath(ValueError):
    """A file of the export would land outside its directory (never, for a slug id)."""


@dataclass(frozen=True, slots=True)
class ExportedItem:
    item: str  # the server item's id (s.<slug>)
    id: str  # its id in the bank
    kind: Kind
    status: Status
    missing: tuple[str, ...]
    files: tuple[str, ...]  # relative to the export directory, '/'-separated


@dataclass(frozen=True, slots=True)
class ExportPlan:
    items: tuple[ExportedItem, ...]
    writes: tuple[Write, ...]  # paths relative to the export directory


def plan_export(root: Path, items: Sequence[ServerItem]) -> ExportPlan:
    """Decide every item's bank id and files; `root` is the bank the ids must not repeat."""
    taken = {qid for _, qid in content_files(root)} if root.is_dir() else set()
    bank_ids = set(taken)
    ids: dict[str, str] = {}
    for item in items:
        ids[item.question.id] = unique(_base_id(item.question), taken)
        taken.add(ids[item.question.id])
    resolvable = {**{b: b for b in bank_ids}, **ids}
    planned = [_plan_item(item, ids[item.question.id], resolvable) for item in items]
    return ExportPlan(tuple(p for p, _ in planned), tuple(w for _, ws in planned for w in ws))


def _base_id(question: Question) -> str:
    slug = question.id.removeprefix(SERVER_PREFIX)
    return slug if SLUG.match(slug) else slug_for(question.title)


def _plan_item(item: ServerItem, qid: str,
               resolvable: dict[str, str]) -> tuple[ExportedItem, list[Write]]:  # fmt: skip
    q = item.question
    missing = _missing(item)
    status = Status.DRAFT if missing else Status.PUBLISHED
    data = _front_matter(item, qid, status, resolvable)
    writes = _qa_files(item, qid, data) if q.kind is Kind.QA else _problem_files(item, qid, data)
    files = tuple(w.path.as_posix() for w in writes)
    return ExportedItem(q.id, qid, q.kind, status, missing, files), writes


def _missing(item: ServerItem) -> tuple[str, ...]:
    """What the bank asks of a published item that this one lacks, in a stable order."""
    q = item.question
    found = []
    if not item.explained:
        found.append(MISSING_EXPLANATION)
    if q.kind is Kind.QA and len(q.quiz) < MIN_CHECKS:
        found.append(MISSING_QUIZ)
    if q.kind is Kind.CODING and (len(q.hints) != len(LEVELS) or not q.signature):
        found.append(MISSING_HINTS)
    if not _english(q):
        found.append(MISSING_ENGLISH)
    if any(t not in topic_table.SLUGS for t in q.topics):
        found.append(MISSING_TOPICS)
    found.append(MISSING_REVIEW)  # `reviewed` is never written
    return tuple(found)


def _english(q: Question) -> bool:
    texts = [q.title_en, q.answer_en] + ([q.prompt_en] if q.kind is Kind.CODING else [])
    return all(_usable_english(t) for t in texts)


def _usable_english(text: str | None) -> bool:
    """Non-empty, and not read as front matter (an English file has none)."""
    return bool(text and text.strip()) and not _FENCE.match(text or "")


def _front_matter(item: ServerItem, qid: str, status: Status,
                  resolvable: dict[str, str]) -> dict[str, Any]:  # fmt: skip
    q = item.question
    data: dict[str, Any] = {"id": qid, "title": q.title}
    if q.title_en and q.title_en.strip():
        data["title_en"] = q.title_en.strip()
    data |= {"kind": q.kind.value, "difficulty": q.difficulty.value, "topics": list(q.topics),
             "sources": _sources(item)}  # fmt: skip
    related = [resolvable[r] for r in q.related if r in resolvable and resolvable[r] != qid]
    if related:
        data["related"] = related
    data["status"] = status.value  # no `reviewed`: the schema wants it absent or non-empty
    if q.kind is Kind.CODING:
        data["signature"] = q.signature or SIGNATURE
        if q.hints:
            data["hints"] = [_pair(h) for h in q.hints]
    if q.quiz:
        data["quiz"] = [_check(c) for c in q.quiz]
    return data


def _pair(text: Bilingual) -> dict[str, str]:
    return {"zh": text.zh, "en": text.en}


def _check(check: QuickCheck) -> dict[str, Any]:
    """A quick check as the `quiz:` key writes it: `correct` on the right option only."""
    options = [{"text": _pair(o.text), **({"correct": True} if o.correct else {}),
                "why": _pair(o.why)} for o in check.options]  # fmt: skip
    return {"question": _pair(check.question), "options": options}


def _sources(item: ServerItem) -> list[dict[str, str]]:
    listed: list[dict[str, str]] = []
    for source in (*item.question.sources, *item.asked_in):
        entry = source_dict(source)
        if all((s["document"], s["title"]) != (entry["document"], entry["title"]) for s in listed):
            listed.append(entry)
    return listed


def _qa_files(item: ServerItem, qid: str, data: dict[str, Any]) -> list[Write]:
    q = item.question
    main = Path(QUESTIONS_DIR) / f"{qid}.md"
    writes = [Write(main, frontmatter.dump(data, q.answer if item.explained else QA_TODO))]
    return writes + _english_file(main, q.answer_en)


def _problem_files(item: ServerItem, qid: str, data: dict[str, Any]) -> list[Write]:
    q = item.question
    folder = Path(PROBLEMS_DIR) / qid
    main, explanation = folder / PROBLEM_FILE, folder / EXPLANATION_FILE
    statement = q.prompt if q.prompt and q.prompt.strip() else q.title
    explained = q.answer if item.explained else EXPLANATION_TODO
    writes = [Write(main, frontmatter.dump(data, statement)),
              Write(explanation, f"{explained.strip()}\n")]  # fmt: skip
    return writes + _english_file(main, q.prompt_en) + _english_file(explanation, q.answer_en)


def _english_file(chinese: Path, text: str | None) -> list[Write]:
    if not _usable_english(text):
        return []
    path = chinese.with_name(chinese.name.removesuffix(".md") + ENGLISH_SUFFIX)
    return [Write(path, f"{(text or '').strip()}\n")]


# --- writing -----------------------------------------------------------------------------------


def write_export(plan: ExportPlan, out: Path) -> None:
    """Write every planned file under `out`, each atomically, in UTF-8; refuse (before
    writing anything) a path that would leave `out`."""
    base = out.resolve()
    targets = [(base / w.path).resolve() for w in plan.writes]
    for target in targets:
        if not target.is_relative_to(base):
            raise UnsafePath(f"refusing to write outside {base}: {target}")
    for write, target in zip(plan.writes, targets, strict=True):
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.tmp")
        temporary.write_text(write.text, encoding="utf-8")
        temporary.replace(target)
