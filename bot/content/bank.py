"""Reading the question bank from `content/`, the single source of truth.

Layout::

    content/questions/<id>.md             an explained question; the body is the answer
    content/problems/<id>/problem.md      a coding problem; the body is the statement
    content/problems/<id>/explanation.md  its explanation, shown by /answer

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
from bot.types import Kind, Question

QUESTIONS_DIR = "questions"
PROBLEMS_DIR = "problems"
PROBLEM_FILE = "problem.md"
EXPLANATION_FILE = "explanation.md"


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
    for path, expected_id in content_files(root):
        question, file_faults = read_file(path, expected_id)
        faults += file_faults
        if question is not None:
            questions.append(question)
    faults += _duplicate_ids(root, questions)
    if faults:
        raise ContentError(faults)
    return Bank(tuple(sorted(questions, key=lambda q: q.id)), fingerprint(root))


def read_file(path: Path, expected_id: str) -> tuple[Question | None, list[Fault]]:
    """Parse and check one content file (and a problem's explanation beside it)."""
    if not path.is_file():
        return None, [Fault(path, 1, "missing file")]
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        return None, [Fault(path, 1, f"not valid UTF-8 ({exc.reason} at byte {exc.start})")]
    try:
        fm = frontmatter.parse(text)
    except frontmatter.FrontMatterError as exc:
        return None, [Fault(path, exc.line, str(exc))]
    question, faults = schema.check(path, fm, expected_id)
    if question is None or path.name != PROBLEM_FILE:
        if question is not None and question.kind is Kind.CODING:
            faults.append(Fault(path, fm.line_of("kind"), "coding problems live in problems/"))
            return None, faults
        return question, faults
    return _with_explanation(question, path.parent / EXPLANATION_FILE, fm.line_of("kind"))


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
    return dataclasses.replace(question, prompt=question.answer, answer=answer), []


def content_files(root: Path) -> Iterator[tuple[Path, str]]:
    """Each question's main file with the id its name gives it, in a stable order."""
    for path in sorted((root / QUESTIONS_DIR).glob("*.md")):
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


def fingerprint(root: Path) -> str:
    """A cheap digest of names, sizes and mtimes: tells at start-up whether to reload."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.md")):
        stat = path.stat()
        digest.update(f"{path.relative_to(root)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()
