"""What grading produces: a worker's raw report, and the verdicts and grades judged from it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Verdict(enum.StrEnum):
    ACCEPTED = "accepted"
    WRONG_ANSWER = "wrong_answer"
    TIME_LIMIT_EXCEEDED = "time_limit_exceeded"
    MEMORY_LIMIT_EXCEEDED = "memory_limit_exceeded"
    RUNTIME_ERROR = "runtime_error"
    COMPILE_ERROR = "compile_error"
    RULE_VIOLATION = "rule_violation"
    SKIPPED = "skipped"  # a test not run because an earlier one ended the process


@dataclass(frozen=True, slots=True)
class Reason:
    """A message of the grader's own, as a catalog key and its values (`reason.*` in
    bot/i18n.py), so each reader sees it in their language. A result that has one keeps its
    English rendering in `message` as well, for logs and `studybot grade --json`; what a
    solution raised or printed is its own text and has no Reason."""

    key: str
    values: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, key: str, **values: object) -> Reason:
        return cls(key, tuple((name, str(value)) for name, value in values.items()))


@dataclass(frozen=True, slots=True)
class TestResult:
    """One test. Sample tests carry their input, expected and actual values as text."""

    number: int
    sample: bool
    verdict: Verdict
    message: str | None = None
    input: str | None = None
    expected: str | None = None
    got: str | None = None
    cpu_ms: float | None = None
    reason: Reason | None = None  # when `message` is the grader's own


@dataclass(frozen=True, slots=True)
class Grade:
    """A submission's result: `problem` is None for a free-form `run`."""

    problem: str | None
    verdict: Verdict
    tests: tuple[TestResult, ...] = ()
    message: str | None = None  # compile error, rule broken, or why the run stopped
    output: str = ""  # what the code printed, capped
    output_dropped: int = 0  # characters printed past the cap
    notes: tuple[str, ...] = ()
    cpu_ms: float | None = None
    peak_kb: int | None = None
    reason: Reason | None = None  # when `message` is the grader's own
    limit_ms: float | None = None  # the CPU limit it was judged against, on its grader
    reference_ms: float | None = None  # the reference's CPU time on that grader

    @property
    def relative_cpu(self) -> float | None:
        """CPU time as a multiple of the reference's on the same grader: comparable across
        graders, as milliseconds are not."""
        if self.cpu_ms is None or not self.reference_ms:
            return None
        return self.cpu_ms / self.reference_ms

    @property
    def passed(self) -> int:
        return sum(t.verdict is Verdict.ACCEPTED for t in self.tests)


@dataclass(frozen=True, slots=True)
class Exit:
    """How a worker ended and what it used, from the kernel through its keeper: CPU time since
    its job arrived, peak resident memory (None when unknown), and whether its keeper stopped
    it for using its whole CPU budget. The only usage a grade reports."""

    code: int
    signal: int | None
    cpu_ms: float | None
    maxrss_kb: int | None
    over: bool = False


@dataclass(slots=True)
class RawRun:
    """What came back from one worker: its event lines, how it ended, and why if cut short."""

    lines: list[bytes] = field(default_factory=list)
    exit: Exit | None = None  # None only if the worker would not end, or the sandbox was lost
    timed_out: bool = False
    overflowed: bool = False
    worker: int | None = None  # the worker's pid, for logs
