"""From a worker's raw report to a `Grade`: decoding, checking, and deciding the verdict.

Runs in a thread (decoding a 200 x 200 matrix per test is real work). The verdict is the
first failing test's, in test order; tests after a test that ended the process are skipped.
A report cut short is explained by how the worker ended: killed at the wall-clock deadline or
by the CPU limit (SIGXCPU) means the test it was on ran out of time.
"""

from __future__ import annotations

import json
import signal
from typing import Any

from bot.grading.checkers import CHECKERS, Outcome
from bot.grading.problems import Case, Problem
from bot.grading.results import Grade, RawRun, TestResult, Verdict

SHOWN = 300  # characters of a sample's input, expected or actual value shown to users
KINDS = {
    "runtime": Verdict.RUNTIME_ERROR,
    "memory": Verdict.MEMORY_LIMIT_EXCEEDED,
    "time": Verdict.TIME_LIMIT_EXCEEDED,
    "result": Verdict.RUNTIME_ERROR,
}
TIME_SIGNALS = {signal.SIGXCPU, signal.SIGKILL}


def judge(problem: Problem | None, raw: RawRun) -> Grade:
    events = _decode(raw.lines)
    head = events[0] if events else {}
    name = problem.id if problem else None
    if head.get("event") == "compile_error":
        return Grade(name, Verdict.COMPILE_ERROR, message=str(head.get("message")))
    if head.get("event") == "rule_violation":
        message = f"`{head.get('rule')}` (line {head.get('line')}) is not allowed here"
        return Grade(name, Verdict.RULE_VIOLATION, message=message)
    done = next((e for e in events if e.get("event") == "done"), {})
    common = _common(head, done, raw)
    stopped = _load_failure(events, problem)
    if stopped is not None:
        verdict, message = stopped
        return Grade(name, verdict, _skipped_all(problem), message=message, **common)
    if problem is None:
        if done:
            return Grade(None, Verdict.ACCEPTED, **common)
        verdict, message = _cut_short(raw)
        return Grade(None, verdict, message=message, **common)
    tests = _tests(problem, events, raw)
    failed = next((t for t in tests if t.verdict is not Verdict.ACCEPTED), None)
    verdict = failed.verdict if failed else Verdict.ACCEPTED
    return Grade(name, verdict, tests, message=failed.message if failed else None, **common)


def _decode(lines: list[bytes]) -> list[dict[str, Any]]:
    events = []
    for line in lines:
        try:
            event = json.loads(line)
        except (ValueError, RecursionError):
            break  # a damaged report ends here; what follows cannot be trusted
        if isinstance(event, dict):
            events.append(event)
    return events


def _common(head: dict[str, Any], done: dict[str, Any], raw: RawRun) -> dict[str, Any]:
    cpu = done.get("cpu_ms", raw.exit.cpu_ms if raw.exit else None)
    peak = done.get("maxrss_kb", raw.exit.maxrss_kb if raw.exit else None)
    return {
        "output": str(done.get("output", "")),
        "output_dropped": int(done.get("dropped", 0)),
        "notes": tuple(map(str, head.get("notes", ()))),
        "cpu_ms": cpu,
        "peak_kb": peak,
    }


def _load_failure(events: list[dict[str, Any]],
                  problem: Problem | None) -> tuple[Verdict, str] | None:  # fmt: skip
    """The module body raised, or the function to grade is missing."""
    for e in events:
        if e.get("event") == "missing" and problem is not None:
            return Verdict.COMPILE_ERROR, f"define a function named `{problem.function}`"
        if e.get("event") == "test" and e.get("i") == -1:
            return KINDS.get(str(e.get("kind")), Verdict.RUNTIME_ERROR), str(e.get("error"))
    return None


def _skipped_all(problem: Problem | None) -> tuple[TestResult, ...]:
    cases = problem.cases if problem else ()
    return tuple(TestResult(c.number, c.sample, Verdict.SKIPPED) for c in cases)


def _tests(problem: Problem, events: list[dict[str, Any]], raw: RawRun) -> tuple[TestResult, ...]:
    by_index = {
        e["i"]: e for e in events if e.get("event") == "test" and isinstance(e.get("i"), int)
    }
    results, ended = [], False
    for index, case in enumerate(problem.cases):
        event = by_index.get(index)
        if ended:
            results.append(TestResult(case.number, case.sample, Verdict.SKIPPED))
        elif event is None:
            verdict, message = _cut_short(raw)
            results.append(_shown(case, verdict, message, None))
            ended = True
        else:
            results.append(_checked(problem, case, event))
            ended = results[-1].verdict is Verdict.TIME_LIMIT_EXCEEDED
    return tuple(results)


def _cut_short(raw: RawRun) -> tuple[Verdict, str]:
    if raw.overflowed:
        return Verdict.RUNTIME_ERROR, "the code's results were too large"
    end = raw.exit
    if raw.timed_out or (end is not None and end.signal in TIME_SIGNALS):
        return Verdict.TIME_LIMIT_EXCEEDED, "time limit exceeded"
    if end is not None and end.signal:
        return Verdict.RUNTIME_ERROR, f"the process crashed ({signal.Signals(end.signal).name})"
    return Verdict.RUNTIME_ERROR, "the process ended before reporting a result"


def _checked(problem: Problem, case: Case, event: dict[str, Any]) -> TestResult:
    if event.get("status") != "ok":
        verdict = KINDS.get(str(event.get("kind")), Verdict.RUNTIME_ERROR)
        return _shown(case, verdict, str(event.get("error")), None, event)
    got = Outcome(event.get("value"), event.get("args"))
    reason = CHECKERS[problem.checker](case.args(), case.expected, got)
    verdict = Verdict.ACCEPTED if reason is None else Verdict.WRONG_ANSWER
    shown = got.args[0] if problem.wants_args and got.args else got.value
    return _shown(case, verdict, reason, shown, event)


def _shown(case: Case, verdict: Verdict, message: str | None, got: Any,
           event: dict[str, Any] | None = None) -> TestResult:  # fmt: skip
    cpu = event.get("cpu_ms") if event else None
    if not case.sample:  # hidden: pass or fail, and the checker's reason, never the data
        return TestResult(case.number, False, verdict, message, cpu_ms=cpu)
    return TestResult(case.number, True, verdict, message, _text(case.args()),
                      _text(case.expected), None if got is None else _text(got), cpu)  # fmt: skip


def _text(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"
