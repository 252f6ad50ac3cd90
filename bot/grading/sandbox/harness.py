"""Compiling and running one solution, inside the worker, reporting events as plain data.

`execute(job, emit)` is all a worker does with a job. Events, in order:

    {"event": "compiled", "notes": [...]}                   or, instead, and then nothing else:
    {"event": "compile_error", "message": "line 3: ..."}
    {"event": "rule_violation", "rule": "**", "line": 7}

    {"event": "test", "i": 0, "status": "ok", "value": ..., "args": [...], "cpu_ms": 0.4,
     "output": "...printed...", "dropped": 0}
    {"event": "test", "i": 1, "status": "error", "kind": "runtime"|"memory"|"time"|"result",
     "error": "IndexError: list index out of range", "cpu_ms": ..., "output": ..., "dropped": 0}
    {"event": "done", "output": "...printed...", "dropped": 0, "cpu_ms": ..., "maxrss_kb": ...}

Each test's line and `done` carry what was printed since the line before (within one cap for
the whole run), so the parent can show what was printed while the module loaded and during
sample tests, and nothing printed during a hidden one.

Values go back as plain data (plain.py: None, bool, int, float, str, lists and str-keyed
dicts, numpy numbers and arrays converted; depth and size capped), so the parent compares
plain values it built itself: an object that claims to equal everything never leaves the
worker. Each test's arguments are decoded from JSON just before the call, so no test sees
another's objects. Parsing happens here, in the worker, since hostile source can exhaust
the parser's recursion.
"""

from __future__ import annotations

import ast
import builtins
import json
import resource
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from types import CodeType
from typing import Any

from RestrictedPython.compile import compile_restricted_exec

from bot.grading.sandbox.plain import Unserializable, plain
from bot.grading.sandbox.policy import Output, recursion_limit, solution_globals
from bot.grading.sandbox.rules import (
    drop_main_block,
    find_banned,
    strip_annotations,
    underscore_keyword,
)
from bot.grading.sandbox.transformer import SolutionTransformer

Event = dict[str, Any]
FILENAME = "<solution>"


class _Refused(Exception):
    def __init__(self, event: Event) -> None:
        super().__init__(event)
        self.event = event


def execute(job: Mapping[str, Any], emit: Callable[[Event], None],
            inputs: Iterator[str] | None = None) -> None:  # fmt: skip
    """Compile and run `job`; `inputs` yields each test's arguments (JSON) when asked, else
    they are in the job itself (`tests`)."""
    output = Output(int(job["output_cap"]))
    try:
        code, notes = _compile(job)
    except _Refused as refused:
        emit(refused.event)
        return
    emit({"event": "compiled", "notes": notes})
    sys.setrecursionlimit(recursion_limit())
    banned = tuple(job.get("banned", ()))
    namespace = _plain_globals() if job.get("plain") else solution_globals(output, banned)
    printed = _Printed(output)
    loaded = _load(code, namespace, job, emit)
    if loaded and job["mode"] == "grade":
        tests = iter(job["tests"]) if inputs is None else inputs
        _run_tests(namespace, job, lambda event: emit(event | printed.since()), tests)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    emit({"event": "done", **printed.since(),
          "cpu_ms": round((usage.ru_utime + usage.ru_stime) * 1000, 3),
          "maxrss_kb": usage.ru_maxrss})  # fmt: skip


class _Printed:
    """What was printed since the last line that carried printed output."""

    def __init__(self, output: Output) -> None:
        self._output, self._parts, self._dropped = output, 0, 0

    def since(self) -> dict[str, Any]:
        parts, dropped = self._output.parts, self._output.dropped
        fresh = {"output": "".join(parts[self._parts :]), "dropped": dropped - self._dropped}
        self._parts, self._dropped = len(parts), dropped
        return fresh


def _compile(job: Mapping[str, Any]) -> tuple[CodeType, list[str]]:
    """Restricted, as every submission is; plain only for the operator's escape drill
    (`studybot sandbox exec --problem`), which shows what a worker holds once the restricted
    layer is gone. No chat command can build a `plain` job."""
    if not job.get("plain"):
        return compile_solution(job["code"], tuple(job.get("banned", ())))
    try:
        return compile(job["code"], FILENAME, "exec"), []
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise _Refused(_compile_error(str(exc))) from None


def _plain_globals() -> dict[str, Any]:
    return {"__builtins__": builtins, "__name__": "solution"}


def compile_solution(source: str, banned: tuple[str, ...]) -> tuple[CodeType, list[str]]:
    """Parse, apply the rules, compile restricted. Raises `_Refused` with the event to send."""
    try:
        tree = ast.parse(source, FILENAME)
    except SyntaxError as exc:
        raise _Refused(_compile_error(f"line {exc.lineno}: {exc.msg}")) from None
    except (RecursionError, MemoryError) as exc:
        raise _Refused(_compile_error(_too_big(exc))) from None
    except ValueError as exc:  # e.g. null bytes
        raise _Refused(_compile_error(str(exc))) from None
    notes = drop_main_block(tree)
    strip_annotations(tree)
    keyword = underscore_keyword(tree)
    if keyword is not None:
        name, line = keyword
        raise _Refused(_compile_error(f'line {line}: keyword "{name}" is invalid because it '
                                      'starts with "_"'))  # fmt: skip
    violation = find_banned(tree, banned)
    if violation is not None:
        event = {"event": "rule_violation", "rule": violation.rule, "line": violation.line}
        raise _Refused(event)
    try:
        result = compile_restricted_exec(tree, FILENAME, policy=SolutionTransformer)
    except (RecursionError, MemoryError) as exc:
        raise _Refused(_compile_error(_too_big(exc))) from None
    if result.errors or result.code is None:
        raise _Refused(_compile_error("; ".join(result.errors) or "refused"))
    return result.code, notes


def _too_big(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "the code is nested too deeply to compile"
    return "the code is too large to compile within the memory limit"


def _compile_error(message: str) -> Event:
    return {"event": "compile_error", "message": message}


def _load(code: CodeType, namespace: dict[str, Any], job: Mapping[str, Any],
          emit: Callable[[Event], None]) -> bool:  # fmt: skip
    """Run the module body (definitions, and whatever a snippet does at top level)."""
    start = time.process_time()
    try:
        exec(code, namespace)
    except BaseException as exc:  # the solution's own exception, whatever it is
        emit(_error_event(-1, exc, start))
        return False
    if job["mode"] == "grade" and not callable(namespace.get(job["function"])):
        emit({"event": "missing", "function": job["function"]})
        return False
    return True


def _run_tests(namespace: dict[str, Any], job: Mapping[str, Any], emit: Callable[[Event], None],
               inputs: Iterator[str]) -> None:  # fmt: skip
    func = namespace[job["function"]]
    budget, want_args = float(job["time_limit"]), bool(job.get("return_args"))
    first = time.process_time()
    for i, raw in enumerate(inputs):
        args = json.loads(raw)  # fresh objects for every test
        start = time.process_time()
        try:
            value = func(*args)
        except BaseException as exc:
            emit(_error_event(i, exc, start))
            continue
        event = _result_event(i, value, args if want_args else None, start)
        if time.process_time() - first > budget:
            event = {"event": "test", "i": i, "status": "error", "kind": "time",
                     "error": "time limit exceeded", "cpu_ms": _ms(start)}  # fmt: skip
            emit(event)
            return
        emit(event)


def _result_event(i: int, value: object, args: list[Any] | None, start: float) -> Event:
    try:
        event = {"event": "test", "i": i, "status": "ok", "value": plain(value)}
        if args is not None:
            event["args"] = plain(args)
    except Unserializable as exc:
        return {"event": "test", "i": i, "status": "error", "kind": "result", "error": str(exc),
                "cpu_ms": _ms(start)}  # fmt: skip
    event["cpu_ms"] = _ms(start)
    return event


def _error_event(i: int, exc: BaseException, start: float) -> Event:
    kind = "memory" if isinstance(exc, MemoryError) else "runtime"
    message = f"{type(exc).__name__}: {_safe_str(exc)}".rstrip(": ")[:480]
    line = _solution_line(exc)
    if line is not None:
        message += f" (line {line})"
    return {"event": "test", "i": i, "status": "error", "kind": kind,
            "error": message, "cpu_ms": _ms(start)}  # fmt: skip


def _solution_line(exc: BaseException) -> int | None:
    """The line of the solution where `exc` was raised (its innermost frame of ours)."""
    line, tb = None, exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == FILENAME:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _safe_str(exc: BaseException) -> str:
    try:
        return str(exc)
    except BaseException:  # a solution's exception whose __str__ itself fails
        return "(unprintable)"


def _ms(start: float) -> float:
    return round((time.process_time() - start) * 1000, 3)
