"""From a worker's raw report to a `Grade`: decoding, checking, and deciding the verdict.

Runs in a thread (decoding a 200 x 200 matrix per test is real work). The verdict is the
first failing test's, in test order; tests after a test that ended the process are skipped.
A report cut short is explained by how the worker ended: killed at the wall-clock deadline or
by the CPU limit (SIGXCPU) means the test it was on ran out of time.

The report is the worker's word, and the worker runs hostile code: every line is measured
before it is decoded and decoded only within its budget (bot/grading/bounds.py), every field is
checked for its type before use, text is capped and its lone surrogates replaced (so it
encodes as UTF-8 in JSON, SQLite and HTTP), and a checker that raises on what it was given is
a wrong answer with the reason, not a crash. Nothing here raises on any report.

Hidden tests stay hidden in what is shown. The parent hands the worker a test's input only
when the line before it has arrived (`READY_FOR_INPUT`, see `Feeder`), so the lines up to the
one that released the first hidden input were written without any hidden input; every line
after it may carry one, whatever it claims to be (an escaped worker writes what it likes). Of
those late lines only verdicts are kept: no printed output, no value, and for a failing test
the kind of mismatch (checkers.MISMATCH) or of error (a built-in exception's name, its message
only if it is one of the interpreter's fixed ones, and the line), never a figure or a shape
of the expected result.
"""

from __future__ import annotations

import builtins
import logging
import re
import signal
from typing import Any

from bot.grades import Grade, RawRun, Reason, TestResult, Verdict
from bot.grading.bounds import FLOOR, Budget, budgets, heading, loads, prefix, shown
from bot.grading.checkers import CHECKERS, MISMATCH, Outcome
from bot.grading.pool import READY_FOR_INPUT
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
ENDINGS = frozenset({"reason.time", "reason.memory", "reason.too_large", "reason.crashed",
                     "reason.no_report"})  # fmt: skip
LATE = "late"  # set on every decoded event (over the worker's own): written after a hidden input
ERROR = re.compile(r"(?P<name>[A-Za-z_]\w{0,60})(?:: .*?)??(?: \(line (?P<line>\d{1,7})\))?", re.S)
BUILTIN_ERRORS = frozenset(
    name for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)  # fmt: skip
# Messages the interpreter writes that say nothing of the data: kept on a hidden test's error.
FIXED_MESSAGES = frozenset({
    "list index out of range", "tuple index out of range", "string index out of range",
    "list assignment index out of range", "pop from empty list", "pop index out of range",
    "division by zero", "float division by zero", "integer division or modulo by zero",
    "integer modulo by zero", "float modulo", "math domain error", "math range error",
    "maximum recursion depth exceeded", "maximum recursion depth exceeded in comparison",
    "maximum recursion depth exceeded while calling a Python object", "index out of range",
})  # fmt: skip


def judge(problem: Problem | None, raw: RawRun) -> Grade:
    try:
        return _judge(problem, raw)
    except Exception:  # a report this module failed to foresee: a verdict, never a crash
        log.exception("a report from worker %s could not be judged", raw.worker)
        name = problem.id if problem else None
        return Grade(name, Verdict.RUNTIME_ERROR, **_said(Reason.of("reason.unreadable")))


def _judge(problem: Problem | None, raw: RawRun) -> Grade:
    events = _read(problem, raw.lines)
    head = events[0] if events else {}
    name = problem.id if problem else None
    if head.get("event") == "compile_error":
        return Grade(name, Verdict.COMPILE_ERROR, message=text(head.get("message")))
    if head.get("event") == "rule_violation":
        rule, line = text(head.get("rule"), 100), _int(head.get("line"))
        return Grade(name, Verdict.RULE_VIOLATION,
                     **_said(Reason.of("reason.rule", rule=rule, line=line)))  # fmt: skip
    done = next((e for e in events if e.get("event") == "done"), {})
    common = _common(head, done, raw, events)
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
    """Every event of a report, decoded whole: for the escape drill, an operator's command
    whose point is to show all a worker wrote (its own process, not the bot's loop)."""
    events = []
    for line in lines:
        try:
            event = loads(line)
        except (ValueError, RecursionError, MemoryError):
            break
        if isinstance(event, dict):
            events.append(event)
    return events


def _read(problem: Problem | None, lines: list[bytes]) -> list[dict[str, Any]]:
    """The report's events in order, each marked `LATE` or not; a damaged line ends it
    (what follows cannot be trusted)."""
    tests = budgets(problem) if problem is not None else ()
    late = _hidden_from(problem, lines)
    events = []
    for n, line in enumerate(lines):
        event = _event(line, tests)
        if event is None:
            break
        if isinstance(event, dict):
            event[LATE] = n >= late
            events.append(event)
    return events


def _hidden_from(problem: Problem | None, lines: list[bytes]) -> int:
    """The first line that may have been written knowing a hidden test's input: the one
    after the line that released it (the `Feeder` sends input k on the k-th ready line)."""
    cases = problem.cases if problem is not None else ()
    first = next((k for k, case in enumerate(cases) if not case.sample), None)
    ready = 0
    for n, line in enumerate(lines):
        if first is not None and line.startswith(READY_FOR_INPUT):
            if ready == first:
                return n + 1
            ready += 1
    return len(lines)


def _event(line: bytes, tests: tuple[Budget, ...]) -> Any:
    """One line decoded within its budget, a stand-in event for a line over it, or None if
    the line is damaged."""
    name, index = heading(line)
    test = name == "test" and index is not None and 0 <= index < len(tests)
    budget = tests[index] if test and index is not None else FLOOR
    if len(line) > budget.size or not budget.holds(Budget.of(line)):
        return _refused(line, name, index)
    try:
        return loads(line)
    except (ValueError, RecursionError, MemoryError):  # ValueError: also digits past 4300
        return None


def _refused(line: bytes, name: str, index: int | None) -> dict[str, Any] | None:
    """What is kept of a line over its budget, never decoded whole: a test's result is far
    larger than the expected one; of a compile error or a script's output, the start."""
    if name == "test" and index is not None:
        return {"event": "test", "i": index, "status": "refused"}
    if name == "compile_error":
        return {"event": name, "message": prefix(line, "message", MESSAGE_KEPT)[0]}
    if name == "done":
        output, dropped = prefix(line, "output", OUTPUT_KEPT)
        return {"event": name, "output": output, "dropped": dropped}
    return None


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
    return shown(value, MESSAGE_KEPT)


def _int(value: Any, default: int = 0) -> int:
    return value if type(value) is int and abs(value) < 1 << 62 else default


def _number(value: Any) -> float | None:
    """A usage figure (milliseconds, kilobytes) if the report gave a plausible one."""
    if type(value) not in (int, float) or not 0 <= value < 1e15:  # NaN fails this too
        return None
    return float(value)


def _common(first: dict[str, Any], done: dict[str, Any], raw: RawRun,
            events: list[dict[str, Any]]) -> dict[str, Any]:  # fmt: skip
    # Usage is the kernel's, through the worker's keeper: never the report's own figures,
    # which a solution that escaped the restricted layer could write as it pleased.
    cpu = _number(raw.exit.cpu_ms) if raw.exit else None
    peak = _number(raw.exit.maxrss_kb) if raw.exit else None
    notes = first.get("notes", ())
    notes = notes[:10] if isinstance(notes, list) and not first.get(LATE) else ()
    output, dropped = _printed(events)
    return {
        "output": text(output[:OUTPUT_KEPT], OUTPUT_KEPT),
        "output_dropped": dropped + max(len(output) - OUTPUT_KEPT, 0),
        "notes": tuple(text(n, 200) for n in notes),
        "cpu_ms": cpu,
        "peak_kb": None if peak is None else int(peak),
    }


def _printed(events: list[dict[str, Any]]) -> tuple[str, int]:
    """What was printed before any hidden test (each line carries what was printed since
    the one before), and how many characters of it were dropped."""
    pieces, dropped = [], 0
    for e in events:
        output = e.get("output")
        if e.get(LATE) or e.get("event") not in ("test", "done") or not isinstance(output, str):
            continue
        pieces.append(output[: OUTPUT_KEPT + 1])
        dropped += max(_int(e.get("dropped")), 0) + max(len(output) - OUTPUT_KEPT - 1, 0)
    return "".join(pieces), dropped


def _load_failure(events: list[dict[str, Any]],
                  problem: Problem | None) -> tuple[Verdict, dict[str, Any]] | None:  # fmt: skip
    """The module body raised, or the function to grade is missing."""
    for e in events:
        if e.get("event") == "missing" and problem is not None:
            reason = Reason.of("reason.define", function=problem.function)
            return Verdict.COMPILE_ERROR, _said(reason)
        if e.get("event") == "test" and _index(e) == -1:
            error = text(e.get("error"))
            return _kind(e), {"message": _error_kind(error) if e.get(LATE) else error}
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
    if event.get("status") == "refused":
        return _shown(case, Verdict.WRONG_ANSWER, Reason.of("reason.result_too_large"), None,
                      event)  # fmt: skip
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
    if not case.sample or (event is not None and event.get(LATE)):
        said = _hidden(verdict, said, event)
    reason = said if isinstance(said, Reason) else None
    message = english(said) if isinstance(said, Reason) else said
    if not case.sample:  # hidden: pass or fail, and the kind of failure, never the data
        return TestResult(case.number, False, verdict, message, cpu_ms=cpu, reason=reason)
    if event is not None and event.get(LATE):  # a sample reported out of turn
        return TestResult(case.number, True, verdict, message, cpu_ms=cpu, reason=reason)
    return TestResult(case.number, True, verdict, message, _text(case.args()),
                      _text(case.expected), None if got is None else _text(got), cpu,
                      reason)  # fmt: skip


def _text(value: Any) -> str:
    return text(shown(value, SHOWN), SHOWN)


def _hidden(verdict: Verdict, said: str | Reason | None,
            event: dict[str, Any] | None) -> str | Reason | None:  # fmt: skip
    """What may be said of a hidden test's failure: the kind, never a value."""
    if isinstance(said, Reason):  # the parent's own words on how it ended carry no data
        return said if said.key in ENDINGS else Reason.of(MISMATCH.get(said.key, "mismatch.value"))
    kind = _kind(event) if event is not None else None
    if verdict is Verdict.TIME_LIMIT_EXCEEDED or kind is Verdict.TIME_LIMIT_EXCEEDED:
        return Reason.of("reason.time")
    if event is not None and event.get("kind") == "result":
        return Reason.of("mismatch.not_plain")
    return None if said is None else _error_kind(said)


def _error_kind(error: str) -> str:
    """A solution's error as a hidden test may show it: a built-in exception's name, its
    message if the interpreter's own fixed words, and the solution's line."""
    match = ERROR.fullmatch(error)
    if match is None:
        return "error"
    name = match["name"] if match["name"] in BUILTIN_ERRORS else "Exception (own class)"
    message = error[len(match["name"]) + 2 :].removesuffix(f" (line {match['line']})")
    shown_ = f"{name}: {message}" if message in FIXED_MESSAGES else name
    return shown_ + (f" (line {match['line']})" if match["line"] else "")
