"""The parent against a hostile worker: whatever bytes come back on its socket, the parent reads
them in bounded time and memory without stalling its event loop, and judges them to a verdict
without raising. Reports are played back through the real reading code (tests/grading/playback.py)
and judged by the real grader."""

from __future__ import annotations

import asyncio
import json
import tracemalloc
from collections.abc import AsyncIterator, Awaitable
from typing import Any, TypeVar

import pytest

from bot.grades import Grade, RawRun, Reason, Verdict
from bot.grading.bounds import shown
from bot.grading.grader import Grader
from bot.grading.judge import MESSAGE_KEPT, OUTPUT_KEPT, judge
from bot.grading.pool import READ_CHUNK
from bot.grading.problems import Problem
from bot.grading.timing import FixedLimits
from tests.grading.playback import OUTPUT_LIMIT, Playback, report

T = TypeVar("T")
MB = 1024 * 1024
FLOOD = 50 * MB
HELD_LIMIT = 2 * READ_CHUNK  # bytes read between two turns of the loop (see `held`)


async def held(work: Awaitable[T], playback: Playback) -> tuple[T, int]:
    """`work`'s result and the most bytes `playback`'s reader took between two turns of
    another task: how long it held the event loop, counted in reading done rather than in
    wall time, which a busy or slow machine stretches without the loop being any less free.

    The reader gives the loop a turn after every chunk it reads, so this is at most two
    chunks (a turn may fall either side of a wait for data); a reader that kept the loop
    while data waits would take a socket buffer's worth or more at once. Judging, in a
    thread, is the judge's cost and not the reader's."""
    worst, stop = 0, asyncio.Event()

    async def ticker() -> None:
        nonlocal worst
        while not stop.is_set():
            before = playback.taken
            await asyncio.sleep(0)
            worst = max(worst, playback.taken - before)

    tick = asyncio.create_task(ticker(), name="turn-ticker")
    await asyncio.sleep(0)
    try:
        result = await work
    finally:
        stop.set()
        await tick  # its last turn spans the end of the work: count it too
    return result, worst


@pytest.fixture
async def closing() -> AsyncIterator[list[Grader]]:
    made: list[Grader] = []
    yield made
    for g in made:
        g.close()


async def graded(made: list[Grader], problems: dict[str, Problem], data: bytes,
                 problem: str | None = "fast-power") -> Grade:  # fmt: skip
    g = Grader(Playback(data), problems, limits=FixedLimits())
    made.append(g)
    if problem is None:
        return await g.run("print(1)")
    return await g.grade(problems[problem], "def my_pow(x, n): ...")


@pytest.mark.parametrize(
    "flood",
    [
        pytest.param(b"x" * FLOOD, id="one 50 MB line"),
        pytest.param(b'{"event": "noise"}\n' * (FLOOD // 19), id="2.7 million lines"),
        pytest.param(b"\n" * FLOOD, id="50 million empty lines"),
    ],
)
async def test_a_report_flood_is_cut_at_the_cap_without_stalling_the_loop(
    problems: dict[str, Problem], closing: list[Grader], flood: bytes
) -> None:
    playback = Playback(flood)
    g = Grader(playback, problems, limits=FixedLimits())
    closing.append(g)
    grade, most = await held(g.grade(problems["fast-power"], "def my_pow(x, n): ..."), playback)
    assert most <= HELD_LIMIT, f"the loop was held for {most} bytes of reading"
    assert playback.taken <= OUTPUT_LIMIT + READ_CHUNK  # bounded: read up to the cap, no more
    assert grade.verdict is Verdict.RUNTIME_ERROR
    assert "too large" in (grade.message or "")


async def test_a_report_within_the_cap_is_read_whole(
    problems: dict[str, Problem], closing: list[Grader]
) -> None:
    value = "y" * (8 * MB)  # one long line, well under the cap, arriving in 64 KiB pieces
    data = report({"event": "compiled", "notes": []}, {"event": "done", "output": value})
    playback = Playback(data)
    raw, most = await held(playback.run({"mode": "run"}, 30), playback)
    assert most <= HELD_LIMIT and playback.taken == len(data)
    assert len(raw.lines) == 2 and not raw.overflowed
    grade = await graded(closing, problems, data, None)
    assert grade.verdict is Verdict.ACCEPTED
    assert grade.output == "y" * OUTPUT_KEPT
    assert grade.output_dropped == 8 * MB - OUTPUT_KEPT


async def test_a_checker_that_overflows_is_a_wrong_answer_with_its_reason(
    problems: dict[str, Problem], closing: list[Grader]
) -> None:
    huge = 1 << 4000  # math.isclose(huge, 1024.0) raises OverflowError
    cases = problems["fast-power"].cases
    data = report({"event": "compiled", "notes": []},
                  *({"event": "test", "i": i, "status": "ok", "value": huge, "cpu_ms": 0.1}
                    for i in range(len(cases))),
                  {"event": "done", "output": "", "dropped": 0})  # fmt: skip
    grade = await graded(closing, problems, data)
    assert grade.verdict is Verdict.WRONG_ANSWER
    first = grade.tests[0]
    assert first.verdict is Verdict.WRONG_ANSWER
    assert first.message is not None and "OverflowError" in first.message
    assert first.got is not None and len(first.got) <= 300


@pytest.mark.parametrize("problem", ["fast-power", "rotate-matrix", "graph-fusion"])
async def test_every_checker_is_guarded_against_odd_values(
    problems: dict[str, Problem], closing: list[Grader], problem: str
) -> None:
    odd: list[Any] = [1 << 4000, -(1 << 4000), 1e308, float("nan"), None, True, "x", {},
                      {"a": [1, {"b": None}]}, [[[[]]]], [1, "a", None], [["n1", 2]],
                      nested(900), [{"x": 1}] * 3]  # fmt: skip
    for value in odd:
        events = [{"event": "test", "i": i, "status": "ok", "value": value, "args": [value]}
                  for i in range(len(problems[problem].cases))]  # fmt: skip
        grade = await graded(closing, problems, report(*events, {"event": "done"}), problem)
        assert grade.verdict in (Verdict.WRONG_ANSWER, Verdict.ACCEPTED)


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


MALFORMED: list[Any] = [
    {"event": "compile_error", "message": {"a": [1, 2]}},
    {"event": "compile_error"},
    {"event": "rule_violation", "rule": ["**"], "line": "seven"},
    {"event": "compiled", "notes": "not a list"},
    {"event": "compiled", "notes": [1, None, {"x": 1}]},
    {"event": "test", "i": "0", "status": "ok", "value": 1},
    {"event": "test", "i": 0.0, "status": "ok", "value": 1},
    {"event": "test", "i": True, "status": "ok", "value": 1},
    {"event": "test", "i": 1 << 4000, "status": "ok", "value": 1},
    {"event": "test", "i": -1, "kind": ["runtime"], "error": None},
    {"event": "test", "i": 0, "status": ["ok"], "kind": {}, "error": 1 << 4000},
    {"event": "test", "i": 0, "status": "ok", "value": 1.0, "args": 5, "cpu_ms": "fast"},
    {"event": "test", "i": 0, "status": "ok", "value": 1.0, "cpu_ms": 1e400},
    {"event": "done", "output": 12, "dropped": "many", "cpu_ms": [], "maxrss_kb": -5},
    {"event": "done", "output": None, "dropped": 1 << 4000, "cpu_ms": 1e999},
    {"event": ["done"]},
    [1, 2, 3],
    "just a string",
]
GARBAGE_LINES = [
    b"{" * 100_000,
    b"[" * 100_000 + b"]" * 100_000,
    b'{"event": "test", "i": 0, "status": "ok", "value": ' + b"9" * 5000 + b"}",
    b"\xff\xfe\x00garbage",
    b'{"event": "done", "output": "\\ud800\\udfff\\ud800"}',
]


@pytest.mark.parametrize("event", MALFORMED, ids=[str(i) for i in range(len(MALFORMED))])
async def test_a_malformed_event_still_gives_a_verdict(
    problems: dict[str, Problem], closing: list[Grader], event: Any
) -> None:
    for problem in ("fast-power", None):
        grade = await graded(closing, problems, report(event), problem)
        assert isinstance(grade.verdict, Verdict)
        assert grade.cpu_ms is None or isinstance(grade.cpu_ms, float)
        assert isinstance(grade.output, str) and isinstance(grade.output_dropped, int)
        json.dumps(grade.message).encode()
        for test in grade.tests:
            assert test.cpu_ms is None or isinstance(test.cpu_ms, float)


@pytest.mark.parametrize("line", GARBAGE_LINES, ids=[str(i) for i in range(len(GARBAGE_LINES))])
async def test_garbage_lines_still_give_a_verdict(
    problems: dict[str, Problem], closing: list[Grader], line: bytes
) -> None:
    grade = await graded(closing, problems, line + b"\n" + report({"event": "done"}))
    assert isinstance(grade.verdict, Verdict)


async def test_a_compile_error_flood_is_capped(
    problems: dict[str, Problem], closing: list[Grader]
) -> None:
    data = report({"event": "compile_error", "message": "E" * (10 * MB)})
    playback = Playback(data)
    raw, most = await held(playback.run({"mode": "grade"}, 30), playback)
    assert most <= HELD_LIMIT and len(raw.lines) == 1
    grade = await graded(closing, problems, data)
    assert grade.verdict is Verdict.COMPILE_ERROR
    assert grade.message is not None and len(grade.message) == MESSAGE_KEPT


async def test_lone_surrogates_are_replaced_everywhere(
    problems: dict[str, Problem], closing: list[Grader]
) -> None:
    bad = "a\ud800b\udfffc"
    cases = problems["fast-power"].cases
    events = [{"event": "compiled", "notes": [bad]},
              {"event": "test", "i": 0, "status": "error", "kind": "runtime", "error": bad,
               "output": bad},
              *({"event": "test", "i": i, "status": "ok", "value": bad}
                for i in range(1, len(cases))),
              {"event": "done", "output": bad, "dropped": 0}]  # fmt: skip
    grade = await graded(closing, problems, report(*events))
    assert grade.output == "a\ufffdb\ufffdc"
    texts = [grade.output, grade.message or "", *grade.notes]
    texts += [t.message or "" for t in grade.tests] + [t.got or "" for t in grade.tests]
    for piece in texts:
        piece.encode("utf-8")  # never a UnicodeEncodeError


async def test_a_report_cut_mid_line_keeps_its_complete_lines(
    problems: dict[str, Problem], closing: list[Grader]
) -> None:
    data = report({"event": "compiled", "notes": []}) + b'{"event": "done", "outp'
    grade = await graded(closing, problems, data, None)
    assert grade.verdict is Verdict.RUNTIME_ERROR
    assert grade.message == "the process ended before reporting a result"


# A bounded parent: a line is measured before it is decoded, and what is shown of a value is
# cut to size before it is encoded. Memory is what these tests count (tracemalloc's peak
# while judging), not time.


def judged_within(problem: Problem | None, data: bytes) -> tuple[Grade, float]:
    """`data` judged as a report (its lines as `read_report` keeps them), and the most
    memory judging it allocated beside the report itself, in MB."""
    raw = RawRun(lines=data.split(b"\n")[:-1])
    tracemalloc.start()
    try:
        grade = judge(problem, raw)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return grade, peak / MB


def first_returns(problem: Problem, value: bytes) -> bytes:
    """A report whose first (sample) test returned `value` (JSON text), the rest 0.0."""
    line = b'{"event": "test", "i": 0, "status": "ok", "value": ' + value + b', "cpu_ms": 0.1}\n'
    rest = ({"event": "test", "i": i, "status": "ok", "value": 0.0}
            for i in range(1, len(problem.cases)))  # fmt: skip
    return report({"event": "compiled", "notes": []}) + line + report(*rest, {"event": "done"})


HUGE = {
    "16 MiB of tiny values": b"[" + b"0," * (8 * MB - 64) + b"0]",
    "620,000 floats": json.dumps([0.123456789012345 + i for i in range(620_000)]).encode(),
    "a 10 MB string of escapes": json.dumps("é\n" * (10 * MB // 8)).encode(),
    "lists nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
    "20,000 empty lists in 60 KB": b"[" + b"[]," * 20_000 + b"[]]",
}


@pytest.mark.parametrize("value", HUGE.values(), ids=list(HUGE))
def test_a_result_far_larger_than_expected_is_refused_before_decoding(
    problems: dict[str, Problem], value: bytes
) -> None:
    problem = problems["fast-power"]
    grade, extra = judged_within(problem, first_returns(problem, value))
    assert extra < 1, f"judging took {extra:.1f} MB"  # decoded, it would take 20-500 MB
    first = grade.tests[0]
    assert first.verdict is Verdict.WRONG_ANSWER
    assert first.reason == Reason.of("reason.result_too_large")
    assert first.got is None


def test_every_right_answer_fits_its_budget(problems: dict[str, Problem]) -> None:
    """The budgets refuse nothing a right answer can be: each problem's expected results,
    reported as a solution's, are accepted."""
    for problem in problems.values():
        events = [{"event": "test", "i": i, "status": "ok",
                   "value": None if problem.wants_args else c.expected,
                   "args": [c.expected] if problem.wants_args else None}
                  for i, c in enumerate(problem.cases)]  # fmt: skip
        grade, _ = judged_within(problem, report({"event": "compiled"}, *events, {"event": "done"}))
        assert grade.verdict is Verdict.ACCEPTED, (problem.id, grade.message)


def test_a_value_is_shown_without_encoding_it_whole() -> None:
    value = [[0.5] * 1000] * 1000  # a million floats, 5 MB as JSON
    tracemalloc.start()
    try:
        text = shown(value, 300)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert text.startswith("[[0.5, 0.5, ") and 300 < len(text) < 320
    assert peak < 64 * 1024  # json.dumps would build the whole 5 MB first
    assert shown(nested(50_000), 300) == "[" * 301  # json.dumps: RecursionError
    assert shown({"a": [1, "x", None, True]}, 300) == '{"a": [1, "x", null, true]}'
