"""Reading the question bank from `content/`, the single source of truth.

Layout (content/README.md is the specification)::

    content/questions/<id>.md             an explained question; the body is the answer
    content/questions/<id>.en.md          its English explanation (no front matter)
    content/problems/<id>/problem.md      a coding problem; the body is the statement
    content/problems/<id>/problem.en.md   its English statement
    content/problems/<id>/explanation.md  its explanation, shown by /answer
    content/problems/<id>/explanation.en.md

An English file is read when it exists; it is required (a missing or empty one is a fault
naming the path expected) of published items in the new format (`schema.english_required`).
A published item's texts, English included, must not still say TODO. `related` ids are
resolved once every file is read, each fault on the line of the id.

Reading is synchronous and touches many files: callers run it off the event loop
(`asyncio.to_thread`). It never stops at the first broken file: every fault of every file
is collected, so `studybot content validate` reports them all at once.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bot.content import frontmatter, schema
from bot.errors import ContentError, Fault
from bot.types import Kind, Question, Status

QUESTIONS_DIR = "questions"
PROBLEMS_DIR = "problems"
PROBLEM_FILE = "problem.md"
EXPLANATION_FILE = "explanation.md"
ENGLISH_SUFFIX = ".en.md"


@dataclass(frozen=True, slots=True)
class Bank:
    questions: tuple[Question, ...]
    fingerprint: str


def read_bank(root: Path) -> Bank:
    """Read and check every content file under `root`; raise `ContentError` listing all faults."""
    if not root.is_dir():
        raise ContentError([Fault(root, 0, "content directory does not exist")])
    questions: list[Question] = []
    faults: list[Fault] = []
    paths: dict[str, Path] = {}
    for path, expected_id in content_files(root):
        question, file_faults = read_file(path, expected_id)
        faults += file_faults
        if question is not None:
            questions.append(question)
            paths.setdefault(question.id, path)
    faults += _duplicate_ids(root, questions)
    faults += _unresolved_related(questions, paths)
    if faults:
        raise ContentError(faults)
    return Bank(tuple(sorted(questions, key=lambda q: q.id)), fingerprint(root))


def read_file(path: Path, expected_id: str) -> tuple[Question | None, list[Fault]]:
    """Parse and check one content file (and a problem's explanation beside it)."""
    text, fault = _read_text(path)
    if text is None:
        return None, [fault or Fault(path, 1, "missing file")]
    try:
        fm = frontmatter.parse(text)
    except frontmatter.FrontMatterError as exc:
        return None, [Fault(path, exc.line, str(exc))]
    question, faults = schema.check(path, fm, expected_id)
    if question is None:
        return None, faults
    if path.name != PROBLEM_FILE:
        if question.kind is Kind.CODING:
            faults.append(Fault(path, fm.line_of("kind"), "coding problems live in problems/"))
            return None, faults
        return _with_english(question, english_path(path), "answer_en", "quiz" in fm.data)
    question, faults = _with_explanation(
        question, path.parent / EXPLANATION_FILE, fm.line_of("kind")
    )
    return _with_problem_english(question, path, "quiz" in fm.data, faults)


def english_path(path: Path) -> Path:
    """Where the English version of a Chinese content file lives (`x.md` -> `x.en.md`)."""
    return path.with_name(path.name.removesuffix(".md") + ENGLISH_SUFFIX)


def _read_text(path: Path) -> tuple[str | None, Fault | None]:
    """The file's text, or None and why not (None and no fault: it does not exist)."""
    if not path.is_file():
        return None, None
    try:
        return path.read_text(encoding="utf-8"), None
    except UnicodeDecodeError as exc:
        return None, Fault(path, 1, f"not valid UTF-8 ({exc.reason} at byte {exc.start})")


def _with_problem_english(
    question: Question | None, path: Path, new_format: bool, faults: list[Fault]
) -> tuple[Question | None, list[Fault]]:
    if question is None:
        return None, faults
    question, prompt_faults = _with_english(question, english_path(path), "prompt_en", new_format)
    explanation = english_path(path.parent / EXPLANATION_FILE)
    if question is None:
        return None, faults + prompt_faults
    question, answer_faults = _with_english(question, explanation, "answer_en", new_format)
    return question, faults + prompt_faults + answer_faults


def _with_english(
    question: Question | None, path: Path, field: str, new_format: bool
) -> tuple[Question | None, list[Fault]]:
    """`question` with the English text of `path` in `field`, or the faults of that file."""
    if question is None:
        return None, []
    text, fault = _read_text(path)
    published = question.status is Status.PUBLISHED
    if text is None and fault is None:
        if published and schema.english_required(new_format):
            fault = Fault(path, 1, "missing: a published item needs its English version here")
        return (None, [fault]) if fault else (question, [])
    faults = [fault] if fault else _english_faults(path, text or "", published)
    if faults:
        return None, faults
    english = (text or "").strip()
    if field == "prompt_en":
        return dataclasses.replace(question, prompt_en=english), []
    return dataclasses.replace(question, answer_en=english), []


def _english_faults(path: Path, text: str, published: bool) -> list[Fault]:
    body = text.strip()
    if not body:
        return [Fault(path, 1, "the English version is empty")]
    if text.lstrip().startswith(frontmatter.FENCE):
        return [Fault(path, 1, "an English file has no front matter: the Chinese file has it")]
    lead = text[: len(text) - len(text.lstrip("\n"))].count("\n")
    todo = schema.todo_line(body)
    if published and todo is not None:
        return [Fault(path, 1 + lead + todo, schema.STILL_TODO)]
    return []


def _with_explanation(
    question: Question, explanation: Path, kind_line: int
) -> tuple[Question | None, list[Fault]]:
    if question.kind is not Kind.CODING:
        problem = explanation.parent / PROBLEM_FILE
        return None, [Fault(problem, kind_line, "problems/ holds coding problems only")]
    if not explanation.is_file():
        return None, [Fault(explanation, 1, "missing: every problem needs an explanation")]
    try:
        answer = explanation.read_text(encoding="utf-8").strip()
    except UnicodeDecodeError as exc:
        return None, [Fault(explanation, 1, f"not valid UTF-8 ({exc.reason} at byte {exc.start})")]
    if not answer:
        return None, [Fault(explanation, 1, "the explanation is empty")]
    todo = schema.todo_line(answer)
    if question.status is Status.PUBLISHED and todo is not None:
        return None, [Fault(explanation, 1 + todo, schema.STILL_TODO)]
    return dataclasses.replace(question, prompt=question.answer, answer=answer), []


def content_files(root: Path) -> Iterator[tuple[Path, str]]:
    """Each item's main (Chinese) file with the id its name gives it, in a stable order.
    English files (`*.en.md`) are read beside their item, never as items."""
    for path in sorted((root / QUESTIONS_DIR).glob("*.md")):
        if not path.name.endswith(ENGLISH_SUFFIX):
            yield path, path.stem
    for folder in sorted((root / PROBLEMS_DIR).glob("*/")):
        yield folder / PROBLEM_FILE, folder.name


def _duplicate_ids(root: Path, questions: list[Question]) -> list[Fault]:
    seen: dict[str, Question] = {}
    faults = []
    for q in questions:
        if q.id in seen:
            faults.append(Fault(root / PROBLEMS_DIR / q.id / PROBLEM_FILE, 1,
                                f"id '{q.id}' is also used by questions/{q.id}.md"))  # fmt: skip
        seen[q.id] = q
    return faults


def _unresolved_related(questions: list[Question], paths: dict[str, Path]) -> list[Fault]:
    """A fault for each `related` id that names no item of the bank, or the item itself."""
    faults = []
    for q in questions:
        for i, rid in enumerate(q.related):
            if rid in paths and rid != q.id:
                continue
            why = "is this item itself" if rid == q.id else "names no item of the bank"
            line = _related_line(paths[q.id], i)
            faults.append(Fault(paths[q.id], line, f"related id '{rid}' {why}"))
    return faults


def _related_line(path: Path, index: int) -> int:
    # Read again only on a fault: a Question does not carry its front matter's lines.
    return frontmatter.parse(path.read_text(encoding="utf-8")).line_of("related", index)


def fingerprint(root: Path) -> str:
    """A cheap digest of names, sizes and mtimes: tells at start-up whether to reload."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.md")):
        stat = path.stat()
        digest.update(f"{path.relative_to(root)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()
