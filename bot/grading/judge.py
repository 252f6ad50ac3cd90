"""From a worker's raw report to a `Grade`: decoding, checking, and deciding the verdict.

Runs in a thread (decoding a 200 x 200 matrix per test is real work). The verdict is the
first failing test's, in test order; tests after a test that ended the process are skipped.
A report cut short is explained by how the worker ended: killed at the wall-clock deadline or
by the CPU limit (SIGXCPU) means the test it was on ran out of time.

The report is the worker's word, and the worker runs hostile code: every field is checked for
its type before use, text is capped and its lone surrogates replaced (so it encodes as UTF-8
in JSON, SQLite and HTTP), and a checker that raises on what it was given is a wrong answer
with the reason, not a crash. Nothing here raises on any report.
"""

from __future__ import annotations

import json
import logging
import signal
from typing import Any

from bot.grades import Grade, RawRun, Reason, TestResult, Verdict
from bot.grading.checkers import CHECKERS, Outcome
from bot.grading.problems import Case, Problem
from bot.grading.sandbox import MEMORY_EXIT
from bot.i18n import english
from bot.text.code import valid_unicode

log = logging.getLogger(__name__)

SHOWN = 300  # characters of a sample's input, expected or actual value shown to users
MESSAGE_KEPT = 2000  # characters of a compile error or error message kept
OUTPUT_KEPT = 4000  # characters of printed output kept (the worker caps it too)
KINDS = {
    "runtime": Verdict.RUNTIME_ERROR,
    "memory": Verdict.MEMORY_LIMIT_EXCEEDED,
    "time": Verdict.TIME_LIMIT_EXCEEDED,
    "result": Verdict.RUNTIME_ERROR,
}
TIME_SIGNALS = {signal.SIGXCPU, signal.SIGKILL}


def judge(problem: Problem | None, raw: RawRun) -> Grade:
    try:
        return _judge(problem, raw)
    except Exception:  # a report this module failed to foresee: a verdict, never a crash
        log.exception("a report from worker %s could not be judged", raw.worker)
        name = problem.id if problem else None
        return Grade(name, Verdict.RUNTIME_ERROR, **_said(Reason.of("reason.unreadable")))


def _judge(problem: Problem | None, raw: RawRun) -> Grade:
    events = decode(raw.lines)
    head = events[0] if events else {}
    name = problem.id if problem else None
    if head.get("event") == "compile_error":
        return Grade(name, Verdict.COMPILE_ERROR, message=text(head.get("message")))
    if head.get("event") == "rule_violation":
        rule, line = text(head.get("rule"), 100), _int(head.get("line"))
        return Grade(name, Verdict.RULE_VIOLATION,
                     **_said(Reason.of("reason.rule", rule=rule, line=line)))  # fmt: skip
    done = next((e for e in events if e.get("event") == "done"), {})
    common = _common(head, done, raw)
    stopped = _load_failure(events, problem)
    if stopped is not None:
        verdict, said = stopped
        return Grade(name, verdict, _skipped_all(problem), **said, **common)
    if problem is None:
        if done:
            return Grade(None, Verdict.ACCEPTED, **common)
        verdict, reason = _cut_short(raw)
        return Grade(None, verdict, **_said(reason), **common)
    tests = _over_budget(_tests(problem, events, raw), raw)
    failed = next((t for t in tests if t.verdict is not Verdict.ACCEPTED), None)
    verdict = failed.verdict if failed else Verdict.ACCEPTED
    said = {"message": failed.message, "reason": failed.reason} if failed else {}
    return Grade(name, verdict, tests, **said, **common)


def decode(lines: list[bytes]) -> list[dict[str, Any]]:
    events = []
    for line in lines:
        try:
            event = json.loads(line)
        except (ValueError, RecursionError, MemoryError):  # ValueError: also digits past 4300
            break  # a damaged report ends here; what follows cannot be trusted
        if isinstance(event, dict):
            events.append(event)
    return events


def text(value: Any, limit: int = MESSAGE_KEPT) -> str:
    """Worker text made safe to keep: a string (anything else is shown as JSON), at most
    `limit` characters, lone surrogates replaced."""
    if value is None:
        return ""
    if not isinstance(value, str):
        value = _json(value)
    if len(value) > limit:
        value = value[: limit - 1] + "…"
    return valid_unicode(value)


def _json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):
        return "(unprintable)"


def _int(value: Any, default: int = 0) -> int:
    return value if type(value) is int and abs(value) < 1 << 62 else default


def _number(value: Any) -> float | None:
    """A usage figure (milliseconds, kilobytes) if the report gave a plausible one."""
    if type(value) not in (int, float) or not 0 <= value < 1e15:  # NaN fails this too
        return None
    return float(value)


def _common(head: dict[str, Any], done: dict[str, Any], raw: RawRun) -> dict[str, Any]:
    # Usage is the kernel's, through the worker's keeper: never the report's own figures,
    # which a solution that escaped the restricted layer could write as it pleased.
    cpu = _number(raw.exit.cpu_ms) if raw.exit else None
    peak = _number(raw.exit.maxrss_kb) if raw.exit else None
    output = done.get("output", "")
    output = output if isinstance(output, str) else ""
    notes = head.get("notes", ())
    notes = notes[:10] if isinstance(notes, list) else ()
    return {
        "output": text(output[:OUTPUT_KEPT], OUTPUT_KEPT),
        "output_dropped": max(_int(done.get("dropped")), 0) + max(len(output) - OUTPUT_KEPT, 0),
        "notes": tuple(text(n, 200) for n in notes),
        "cpu_ms": cpu,
        "peak_kb": None if peak is None else int(peak),
    }


def _load_failure(events: list[dict[str, Any]],
                  problem: Problem | None) -> tuple[Verdict, dict[str, Any]] | None:  # fmt: skip
    """The module body raised, or the function to grade is missing."""
    for e in events:
        if e.get("event") == "missing" and problem is not None:
            reason = Reason.of("reason.define", function=problem.function)
            return Verdict.COMPILE_ERROR, _said(reason)
        if e.get("event") == "test" and _index(e) == -1:
            return _kind(e), {"message": text(e.get("error"))}
    return None


def _index(event: dict[str, Any]) -> int | None:
    i = event.get("i")
    return i if type(i) is int else None  # not a bool, not a float


def _kind(event: dict[str, Any]) -> Verdict:
    kind = event.get("kind")
    return KINDS.get(kind if isinstance(kind, str) else "", Verdict.RUNTIME_ERROR)


def _skipped_all(problem: Problem | None) -> tuple[TestResult, ...]:
    cases = problem.cases if problem else ()
    return tuple(TestResult(c.number, c.sample, Verdict.SKIPPED) for c in cases)


def _tests(problem: Problem, events: list[dict[str, Any]], raw: RawRun) -> tuple[TestResult, ...]:
    by_index: dict[int, dict[str, Any]] = {}
    for e in events:
        if e.get("event") == "test" and (i := _index(e)) is not None:
            by_index.setdefault(i, e)  # the first word on a test is the one that counts
    results, ended = [], False
    for index, case in enumerate(problem.cases):
        event = by_index.get(index)
        if ended:
            results.append(TestResult(case.number, case.sample, Verdict.SKIPPED))
        elif event is None:
            verdict, reason = _cut_short(raw)
            results.append(_shown(case, verdict, reason, None))
            ended = True
        else:
            results.append(_checked(problem, case, event))
            ended = results[-1].verdict is Verdict.TIME_LIMIT_EXCEEDED
    return tuple(results)


def _over_budget(tests: tuple[TestResult, ...], raw: RawRun) -> tuple[TestResult, ...]:
    """The keeper stopped the worker at its CPU budget after every test had reported (it
    reported, then spun): the run did not finish within its limit, so its last test did
    not either, whatever the report says."""
    if not (raw.exit and raw.exit.over) or not tests or tests[-1].verdict is Verdict.SKIPPED:
        return tests
    if any(t.verdict is Verdict.TIME_LIMIT_EXCEEDED for t in tests):
        return tests
    last = tests[-1]
    timed_out = TestResult(last.number, last.sample, Verdict.TIME_LIMIT_EXCEEDED,
                           english(Reason.of("reason.time")), cpu_ms=last.cpu_ms,
                           reason=Reason.of("reason.time"))  # fmt: skip
    return (*tests[:-1], timed_out)


def _cut_short(raw: RawRun) -> tuple[Verdict, Reason]:
    if raw.overflowed:
        return Verdict.RUNTIME_ERROR, Reason.of("reason.too_large")
    end = raw.exit
    if end is not None and end.code == MEMORY_EXIT:
        return Verdict.MEMORY_LIMIT_EXCEEDED, Reason.of("reason.memory")
    if raw.timed_out or (end is not None and (end.over or end.signal in TIME_SIGNALS)):
        return Verdict.TIME_LIMIT_EXCEEDED, Reason.of("reason.time")
    if end is not None and end.signal:
        return Verdict.RUNTIME_ERROR, Reason.of("reason.crashed", signal=_signal_name(end.signal))
    return Verdict.RUNTIME_ERROR, Reason.of("reason.no_report")


def _said(reason: Reason) -> dict[str, Any]:
    """A grader's message: its Reason, and its English words for logs and --json."""
    return {"message": english(reason), "reason": reason}


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _checked(problem: Problem, case: Case, event: dict[str, Any]) -> TestResult:
    if event.get("status") != "ok":
        return _shown(case, _kind(event), text(event.get("error")), None, event)
    args = event.get("args")
    got = Outcome(event.get("value"), args if isinstance(args, list) else None)
    reason = _check(problem, case, got)
    verdict = Verdict.ACCEPTED if reason is None else Verdict.WRONG_ANSWER
    shown = got.args[0] if problem.wants_args and got.args else got.value
    return _shown(case, verdict, reason, shown, event)


def _check(problem: Problem, case: Case, got: Outcome) -> Reason | None:
    """The checker's reason, or why the result could not even be compared: a checker meets
    whatever plain data the solution returned (an int too large for a float, a structure
    nested past the recursion limit, a dict where a list was due) and may raise on it."""
    try:
        reason = CHECKERS[problem.checker](case.args(), case.expected, got)
    except Exception as exc:
        detail = text(f"{type(exc).__name__}: {_reason(exc)}", 200)
        return Reason.of("reason.uncomparable", detail=detail)
    return reason


def _reason(exc: BaseException) -> str:
    try:
        return str(exc)
    except Exception:
        return "(unprintable)"


def _shown(case: Case, verdict: Verdict, said: str | Reason | None, got: Any,
           event: dict[str, Any] | None = None) -> TestResult:  # fmt: skip
    """A test's result; `said` is the solution's own error text or the grader's Reason."""
    cpu = _number(event.get("cpu_ms")) if event else None
    reason = said if isinstance(said, Reason) else None
    message = english(said) if isinstance(said, Reason) else said
    if not case.sample:  # hidden: pass or fail, and the checker's reason, never the data
        return TestResult(case.number, False, verdict, message, cpu_ms=cpu, reason=reason)
    return TestResult(case.number, True, verdict, message, _text(case.args()),
                      _text(case.expected), None if got is None else _text(got), cpu,
                      reason)  # fmt: skip


def _text(value: Any) -> str:
    return text(_json(value), SHOWN)
