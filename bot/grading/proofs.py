"""Proofs that a problem's tests tell right from wrong, run by `studybot content validate`.

Two claims are checked through the same Grader, sandbox and restricted compiler that grade
chat submissions, so they hold for what users will meet:

- the reference (the first ```python block of explanation.md), submitted as a user would
  submit it, is accepted with room to spare: it uses at most a third of the limit
  (`REFERENCE_SHARE`), so a grader having a slow moment does not refuse it;
- every known-wrong solution kept in problems/<id>/wrong/*.py is rejected: the tests catch
  the mistake it makes. Each file opens with comments saying what the mistake is, and may
  name the verdict it must get. `# expect: time_limit_exceeded` proves that the limits
  separate the naive complexity from the intended one, with a margin: the solution is run
  with `TOO_SLOW_STRETCH` times the limit and must still be running when that runs out, so
  a machine where it runs three times faster than here still refuses it:

      # expect: wrong_answer
      # Forgets to subtract the row maximum: exp(1000) overflows and the row becomes nan.
      def softmax(logits): ...

Every published problem keeps at least one wrong solution. Each proof records what it saw
(`Proof`: the verdict, the CPU time it ran, the limit and the reference time), which
`content validate --json` prints.

Proving takes seconds per solution that must run out of time, so a proof is remembered
(`ProofCache`) with what it saw: under a key made of the solution, its expected verdict,
the problem's judge file, generators and reference, and the grading code itself. Change any
of them and that proof runs again; `--fresh` runs them all.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.content.bank import EXPLANATION_FILE
from bot.errors import Fault
from bot.grades import Grade, Verdict
from bot.grading.case_cache import engine_digest, files_digest
from bot.grading.grader import Grader, GraderConfig
from bot.grading.problems import CODE_BLOCK, Problem
from bot.grading.timing import UnmeasurableReference

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


# Proofs wait for the CPU limit however busy the machine is: a too-slow solution cut off by
# the wall clock first would prove nothing.
PROVING = GraderConfig(deadline_factor=20.0)
REFERENCE_SHARE = 1 / 3  # the most of its limit the reference may use
TOO_SLOW_STRETCH = 3.0  # times the limit a too-slow solution must still be running at


@dataclass(frozen=True, slots=True)
class Proof:
    """What proving one attempt saw. `ran_ms`: the CPU time it used before it finished or was
    stopped; `limit_ms`: the limit it ran under (stretched for a too-slow solution)."""

    attempt: Attempt
    verdict: Verdict
    ran_ms: float | None
    limit_ms: float | None
    reference_ms: float | None
    fault: Fault | None

    def record(self) -> dict[str, Any]:
        return {"verdict": self.verdict.value, "ran_ms": self.ran_ms,
                "limit_ms": self.limit_ms, "reference_ms": self.reference_ms}  # fmt: skip

    @classmethod
    def remembered(cls, attempt: Attempt, record: dict[str, Any]) -> Proof:
        return cls(attempt, Verdict(record["verdict"]), record["ran_ms"], record["limit_ms"],
                   record["reference_ms"], None)  # fmt: skip


async def prove(grader: Grader, attempts: list[Attempt], parallel: int = 2) -> list[Proof]:
    """Grade every attempt (`parallel` at a time), each as its claim needs."""
    gate = asyncio.Semaphore(parallel)

    async def one(attempt: Attempt) -> Proof:
        stretch = TOO_SLOW_STRETCH if attempt.expect is Verdict.TIME_LIMIT_EXCEEDED else 1.0
        try:
            async with gate:
                grade = await grader.grade(grader.problems[attempt.problem], attempt.code,
                                           stretch=stretch)  # fmt: skip
        except UnmeasurableReference as exc:  # no limit: the reference's fault says why
            fault = _judged(attempt, exc.grade) if attempt.reference else Fault(
                attempt.path, attempt.line, "not proved: the problem's reference solution is "
                "not accepted, so it has no time limit")  # fmt: skip
            return Proof(attempt, exc.grade.verdict, None, None, None, fault)
        return Proof(attempt, grade.verdict, grade.cpu_ms, grade.limit_ms, grade.reference_ms,
                     _judged(attempt, grade))  # fmt: skip

    return list(await asyncio.gather(*(one(a) for a in attempts)))


def faults_of(results: list[Proof]) -> list[Fault]:
    return [proof.fault for proof in results if proof.fault is not None]


class ProofCache:
    """What the attempts proved before showed, by key, in a JSON file (a missing or broken
    file is an empty cache: the proofs simply run)."""

    def __init__(self, path: Path, content_dir: Path) -> None:
        self._path, self._content = path, content_dir
        self._engine = engine_digest()
        self._folders: dict[str, str] = {}
        try:
            known = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            known = None
        self._known: dict[str, dict[str, Any]] = known if isinstance(known, dict) else {}

    def key(self, attempt: Attempt) -> str:
        if attempt.problem not in self._folders:
            folder = self._content / "problems" / attempt.problem
            self._folders[attempt.problem] = files_digest(folder).hex()
        parts = (self._engine, self._folders[attempt.problem], str(attempt.expect), attempt.code)
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    def proven(self, attempt: Attempt) -> Proof | None:
        record = self._known.get(self.key(attempt))
        try:
            return Proof.remembered(attempt, record) if isinstance(record, dict) else None
        except (KeyError, ValueError):  # written by another version: prove it again
            return None

    def save(self, results: list[Proof]) -> None:
        self._known |= {self.key(p.attempt): p.record() for p in results if p.fault is None}
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            self._path.write_text(json.dumps(self._known, sort_keys=True), encoding="utf-8")
        except OSError:
            pass  # a cache that cannot be written only costs time next run


def margins(results: list[Proof], content_dir: Path) -> list[dict[str, Any]]:
    """Each problem's limit, its reference's time and share of it, and what each wrong
    solution ran before it finished or was stopped: `content validate --json`."""
    problems: dict[str, dict[str, Any]] = {}
    for proof in sorted(results, key=lambda p: (p.attempt.problem, str(p.attempt.path))):
        a = proof.attempt
        entry = problems.setdefault(a.problem, {"id": a.problem, "wrongs": []})
        if a.reference:
            share = (proof.ran_ms / proof.limit_ms) if proof.ran_ms and proof.limit_ms else None
            entry |= {"limit_ms": proof.limit_ms, "reference_ms": proof.reference_ms,
                      "reference_ran_ms": proof.ran_ms, "reference_share": share}  # fmt: skip
        else:
            entry["wrongs"].append({
                "file": str(a.path.relative_to(content_dir)),
                "expected": a.expect.value if a.expect else "rejected",
                "verdict": proof.verdict.value, "ran_ms": proof.ran_ms,
                "limit_ms": proof.limit_ms,
            })  # fmt: skip
    return list(problems.values())


def margin_lines(results: list[Proof]) -> list[str]:
    """One line per problem: its limit, what the reference used of it, and how far past it
    the too-slow solutions were still running."""
    lines = []
    for entry in margins(results, Path("/")):
        if entry.get("limit_ms") is None:
            continue
        line = (f"{entry['id']}: limit {entry['limit_ms']:.0f} ms (reference "
                f"{entry['reference_ms']:.0f} ms); the reference ran "
                f"{entry['reference_ran_ms'] or 0:.0f} ms")  # fmt: skip
        slow = [w for w in entry["wrongs"] if w["expected"] == Verdict.TIME_LIMIT_EXCEEDED]
        for w in slow:
            line += (f"; {Path(w['file']).name} stopped at {w['ran_ms'] or 0:.0f} ms of "
                     f"{w['limit_ms'] or 0:.0f}")  # fmt: skip
        lines.append(line)
    return lines


def _judged(attempt: Attempt, grade: Grade) -> Fault | None:
    got = grade.verdict
    if attempt.reference and got is not Verdict.ACCEPTED:
        return Fault(attempt.path, attempt.line, f"the reference solution is not accepted "
                     f"when submitted: {_describe(grade)}")  # fmt: skip
    if attempt.reference and not _spare(grade):
        return Fault(attempt.path, attempt.line, f"the reference used {grade.cpu_ms:.0f} ms "
                     f"of its {grade.limit_ms:.0f} ms limit: more than a third leaves no room "
                     "for a slower moment; raise time_limit's times")  # fmt: skip
    if not attempt.reference and got is Verdict.ACCEPTED:
        if attempt.expect is Verdict.TIME_LIMIT_EXCEEDED:
            return Fault(attempt.path, attempt.line, f"this too-slow solution finished in "
                         f"{grade.cpu_ms or 0:.0f} ms, within {TOO_SLOW_STRETCH:g}x its limit "
                         f"({grade.limit_ms or 0:.0f} ms): a faster machine would accept it; "
                         "make the tests separate it by its complexity")  # fmt: skip
        return Fault(attempt.path, attempt.line, "this known-wrong solution is accepted: the "
                     "tests do not catch its mistake")  # fmt: skip
    if (
        attempt.expect is Verdict.TIME_LIMIT_EXCEEDED
        and got is attempt.expect
        and not _ran_out(grade)
    ):
        return Fault(attempt.path, attempt.line, f"this too-slow solution was stopped by the "
                     f"wall clock after {grade.cpu_ms or 0:.0f} ms of CPU, before its "
                     f"{grade.limit_ms or 0:.0f} ms: the machine was too busy to prove that it "
                     "is still running then; run again on a quieter one")  # fmt: skip
    if attempt.expect not in (None, Verdict.ACCEPTED, got):
        return Fault(attempt.path, attempt.line, f"expected {attempt.expect}, got "
                     f"{_describe(grade)}")  # fmt: skip
    return None


def _ran_out(grade: Grade) -> bool:
    """Whether a run stopped for time used its whole CPU allowance (rather than being cut
    off by the wall clock first, which proves nothing about the solution)."""
    if grade.cpu_ms is None or grade.limit_ms is None:
        return True  # nothing to compare (an executor that reports no time)
    return grade.cpu_ms >= grade.limit_ms * 0.99  # (the clocks round differently)


def _spare(grade: Grade) -> bool:
    """Whether an accepted reference used at most `REFERENCE_SHARE` of its limit."""
    if grade.cpu_ms is None or grade.limit_ms is None:
        return True  # nothing to compare (an executor that reports no time)
    return grade.cpu_ms <= grade.limit_ms * REFERENCE_SHARE


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
