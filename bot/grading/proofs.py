"""Proofs that a problem's tests tell right from wrong, run by `studybot content validate`.

Two claims are checked through the same Grader, sandbox and restricted compiler that grade
chat submissions, so they hold for what users will meet:

- the reference (the first ```python block of explanation.md), submitted as a user would
  submit it, is accepted: the statement's problem is solvable inside the sandbox's rules;
- every known-wrong solution kept in problems/<id>/wrong/*.py is rejected: the tests catch
  the mistake it makes. Each file opens with comments saying what the mistake is, and may
  name the verdict it must get (`# expect: time_limit_exceeded` proves that the limits
  separate the naive complexity from the intended one):

      # expect: wrong_answer
      # Forgets to subtract the row maximum: exp(1000) overflows and the row becomes nan.
      def softmax(logits): ...

Every published problem keeps at least one wrong solution.

Proving takes seconds per solution that must run out of time, so a proof is remembered
(`ProofCache`): under a key made of the solution, its expected verdict, the problem's judge
file, generators and reference, and the grading code itself. Change any of them and that
proof runs again; `--fresh` runs them all.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bot.content.bank import EXPLANATION_FILE
from bot.errors import Fault
from bot.grades import Grade, Verdict
from bot.grading.case_cache import files_digest
from bot.grading.grader import Grader
from bot.grading.problems import CODE_BLOCK, Problem

WRONG_DIR = "wrong"
EXPECT = re.compile(r"^#\s*expect:\s*(\S+)\s*$")


@dataclass(frozen=True, slots=True)
class Attempt:
    """A solution with a known outcome: `expect` None means "anything but accepted"."""

    problem: str
    path: Path
    line: int  # where a fault about it points
    code: str
    expect: Verdict | None

    @property
    def reference(self) -> bool:
        return self.expect is Verdict.ACCEPTED


def gather(content_dir: Path, problems: Iterable[Problem]) -> tuple[list[Attempt], list[Fault]]:
    """Each problem's reference and wrong solutions, and the faults of their files."""
    attempts, faults = list[Attempt](), list[Fault]()
    for problem in problems:
        folder = content_dir / "problems" / problem.id
        attempts.append(_reference(folder, problem.id))
        wrong = sorted((folder / WRONG_DIR).glob("*.py"))
        if not wrong:
            why = f"keep at least one known-wrong solution in {WRONG_DIR}/ (see {__name__})"
            faults.append(Fault(folder / "judge.yaml", 1, why))
        for path in wrong:
            attempt, fault = _wrong(path, problem.id)
            attempts += [attempt] if attempt else []
            faults += [fault] if fault else []
    return attempts, faults


async def prove(grader: Grader, attempts: list[Attempt],
                parallel: int = 2) -> list[tuple[Attempt, Fault | None]]:  # fmt: skip
    """Grade every attempt (`parallel` at a time): each with its fault, None if it ended as
    it should."""
    gate = asyncio.Semaphore(parallel)

    async def one(attempt: Attempt) -> tuple[Attempt, Fault | None]:
        async with gate:
            grade = await grader.grade(grader.problems[attempt.problem], attempt.code)
        return attempt, _judged(attempt, grade)

    return list(await asyncio.gather(*(one(a) for a in attempts)))


def faults_of(results: list[tuple[Attempt, Fault | None]]) -> list[Fault]:
    return [fault for _, fault in results if fault is not None]


class ProofCache:
    """Keys of the attempts proved before, in a JSON file (a missing or broken file is an
    empty cache: the proofs simply run)."""

    def __init__(self, path: Path, content_dir: Path) -> None:
        self._path, self._content = path, content_dir
        self._engine = engine_digest()
        self._folders: dict[str, str] = {}
        try:
            self._known = set(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            self._known = set()

    def key(self, attempt: Attempt) -> str:
        if attempt.problem not in self._folders:
            folder = self._content / "problems" / attempt.problem
            self._folders[attempt.problem] = files_digest(folder).hex()
        parts = (self._engine, self._folders[attempt.problem], str(attempt.expect), attempt.code)
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    def proven(self, attempt: Attempt) -> bool:
        return self.key(attempt) in self._known

    def save(self, results: list[tuple[Attempt, Fault | None]]) -> None:
        self._known |= {self.key(a) for a, fault in results if fault is None}
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            self._path.write_text(json.dumps(sorted(self._known)), encoding="utf-8")
        except OSError:
            pass  # a cache that cannot be written only costs time next run


def engine_digest() -> str:
    """The grading code: the sandbox, the judge, the checkers and the verdicts."""
    root = Path(__file__).parent
    files = [*sorted(root.rglob("*.py")), root.parent / "grades.py"]
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _judged(attempt: Attempt, grade: Grade) -> Fault | None:
    got = grade.verdict
    if attempt.reference and got is not Verdict.ACCEPTED:
        return Fault(attempt.path, attempt.line, f"the reference solution is not accepted "
                     f"when submitted: {_describe(grade)}")  # fmt: skip
    if not attempt.reference and got is Verdict.ACCEPTED:
        return Fault(attempt.path, attempt.line, "this known-wrong solution is accepted: the "
                     "tests do not catch its mistake")  # fmt: skip
    if attempt.expect not in (None, Verdict.ACCEPTED, got):
        return Fault(attempt.path, attempt.line, f"expected {attempt.expect}, got "
                     f"{_describe(grade)}")  # fmt: skip
    return None


def _describe(grade: Grade) -> str:
    failed = next((t for t in grade.tests if t.verdict is not Verdict.ACCEPTED), None)
    where = f" at test {failed.number}" if failed else ""
    detail = grade.message or (failed.message if failed else None)
    return f"{grade.verdict}{where}" + (f" ({detail[:200]})" if detail else "")


def _reference(folder: Path, problem: str) -> Attempt:
    path = folder / EXPLANATION_FILE
    text = path.read_text(encoding="utf-8")
    match = CODE_BLOCK.search(text)
    assert match is not None  # load_problem has checked it
    line = text.count("\n", 0, match.start()) + 1
    return Attempt(problem, path, line, match.group(1), Verdict.ACCEPTED)


def _wrong(path: Path, problem: str) -> tuple[Attempt | None, Fault | None]:
    try:
        code = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        return None, Fault(path, 1, f"not valid UTF-8 ({exc.reason} at byte {exc.start})")
    header = [line for line in code.splitlines()[:20] if line.startswith("#")]
    expect = next((m.group(1) for m in map(EXPECT.match, header) if m), None)
    if expect is not None and expect not in {v.value for v in Verdict} - {"accepted"}:
        names = ", ".join(v.value for v in Verdict if v is not Verdict.ACCEPTED)
        return None, Fault(path, 1, f"'# expect: {expect}' is not a verdict; one of: {names}")
    if not any(not EXPECT.match(line) for line in header):
        return None, Fault(path, 1, "open a wrong solution with a comment saying its mistake")
    return Attempt(problem, path, 1, code, Verdict(expect) if expect else None), None
