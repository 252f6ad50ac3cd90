"""What a hostile report costs the bot: its extra memory and the event loop's longest stall
per submission, for the worst report shapes, beside the alternative of decoding every line
whole and encoding a value whole to show 300 characters of it (the judge before budgets).

Each shape is a worker's report played back through the parent's real reading code
(tests/grading/playback.py) and judged by the real grader, in its judging thread, while a
ticker task on the loop records its longest gap (the loop's stall). Memory is the peak of
what Python allocated during the submission (tracemalloc, in a second run: tracing slows
everything down, so it is not on while stalls are timed). Targets: extra memory < 50 MB,
stall < 20 ms.

    python -m bench reports
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.grading.bounds import budgets
from bot.grading.grader import Grader
from bot.grading.pool import Limits
from bot.grading.problems import Problem, load_problems
from bot.grading.timing import FixedLimits
from bot.interpreter import tune_interpreter
from tests.grading.playback import OUTPUT_LIMIT, Playback, report

REPO = Path(__file__).resolve().parent.parent
MB = 1024 * 1024
LINE = OUTPUT_LIMIT - 64 * 1024  # one line as large as the report's byte limit lets it be
REPEATS = 5


def _test(i: int, value: Any) -> dict[str, Any]:
    return {"event": "test", "i": i, "status": "ok", "value": value, "cpu_ms": 0.1}


def _reported(problem: Problem, first: Any, rest: Any = None) -> bytes:
    """A report whose first test returned `first` and every other test `rest`."""
    tests = [_test(0, first)] + [_test(i, rest) for i in range(1, len(problem.cases))]
    return report({"event": "compiled", "notes": []}, *tests, {"event": "done"})


def _many_lines(problem: Problem) -> bytes:
    """Every line the line limit allows, each as long as the byte limit shares out."""
    count = Limits.of({"tests": problem.cases}, OUTPUT_LIMIT).lines - 2
    width = OUTPUT_LIMIT // (count + 2) - 80
    tests = [_test(i % len(problem.cases), [0] * (width // 3)) for i in range(count)]
    return report({"event": "compiled", "notes": []}, *tests)


def shapes(problems: dict[str, Problem]) -> dict[str, tuple[Problem, bytes]]:
    power, top = problems["fast-power"], problems["top-k-heap"]
    rng = random.Random(7)
    floats = [rng.random() for _ in range(620_000)]
    biggest = max(top.cases, key=lambda c: len(json.dumps(c.expected)))
    return {
        "fast-power: 16 MiB line of tiny values": (power, _reported(power, [0] * (LINE // 3))),
        "fast-power: 620,000 floats returned": (power, _reported(power, floats)),
        "fast-power: lists nested 1M deep": (power, _deep(power, 1_000_000)),
        "fast-power: 16 MiB string of escapes": (power, _reported(power, "é\n\t" * (LINE // 16))),
        "fast-power: 53 lines at the limit": (power, _many_lines(power)),
        "top-k-heap: the right answers": (top, _right(top)),
        "top-k-heap: largest budget, tiny values": (top, _widest(top, biggest.number - 1)),
    }


def _deep(problem: Problem, depth: int) -> bytes:
    """Built as text: a million nested lists is a JSON text, not a Python value to encode."""
    value = b"[" * depth + b"]" * depth
    data = _reported(problem, 0, 1.0).split(b"\n")
    data[1] = b'{"event": "test", "i": 0, "status": "ok", "value": ' + value + b"}"
    return b"\n".join(data)


def _right(problem: Problem) -> bytes:
    tests = [_test(i, c.expected) for i, c in enumerate(problem.cases)]
    return report({"event": "compiled", "notes": []}, *tests, {"event": "done"})


def _widest(problem: Problem, index: int) -> bytes:
    """Every test right but one, which returns as many zeros as its budget lets through."""
    zeros = budgets(problem)[index].commas - 64
    tests = [_test(i, [0] * zeros if i == index else c.expected)
             for i, c in enumerate(problem.cases)]  # fmt: skip
    return report({"event": "compiled", "notes": []}, *tests, {"event": "done"})


async def _stall(work: Awaitable[Any]) -> float:
    """The loop's longest gap between two turns of a ticker while `work` runs, in ms."""
    worst, stop = 0.0, asyncio.Event()

    async def ticker() -> None:
        nonlocal worst
        last = time.perf_counter()
        while not stop.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            worst, last = max(worst, now - last - 0.001), now

    tick = asyncio.create_task(ticker(), name="stall-ticker")
    await asyncio.sleep(0.01)
    try:
        await work
    finally:
        stop.set()
        await tick
    return worst * 1000


async def _budgeted(problem: Problem, data: bytes) -> Any:
    grader = Grader(Playback(data), {problem.id: problem}, limits=FixedLimits())
    try:
        return await grader.grade(problem, "def f(): ...")
    finally:
        grader.close()


async def _whole(problem: Problem, data: bytes) -> Any:
    """The alternative: every line decoded whole, each value encoded whole to be shown."""
    raw = await Playback(data).run({"tests": problem.cases}, 30)

    def judge() -> list[str]:
        shown = []
        for line in raw.lines:
            try:
                event = json.loads(line)
            except (ValueError, RecursionError):
                break
            if isinstance(event, dict) and "value" in event:
                shown.append(json.dumps(event["value"])[:300])
        return shown

    return await asyncio.get_running_loop().run_in_executor(None, judge)


async def _measured(way: Callable[[Problem, bytes], Awaitable[Any]], problem: Problem,
                    data: bytes) -> tuple[float, float, float]:  # fmt: skip
    """(median and worst stall in ms over `REPEATS` runs, peak extra MB)."""
    stalls = [await _stall(way(problem, data)) for _ in range(REPEATS)]
    tracemalloc.start()
    try:
        await way(problem, data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return statistics.median(stalls), max(stalls), peak / MB


async def _run() -> None:
    problems = load_problems(REPO / "content")
    for problem in (problems["fast-power"], problems["top-k-heap"]):
        await _budgeted(problem, _right(problem))  # budgets are computed once per problem
    idle = [await _stall(asyncio.sleep(0.3)) for _ in range(REPEATS)]
    print(f"the loop's own stall, judging nothing for 0.3 s: median {statistics.median(idle):.1f} "
          f"ms, worst {max(idle):.1f} ms (this machine's noise)")  # fmt: skip
    print(f"{'report shape':42} {'report':>6} | {'budgeted (this code)':>24} | "
          f"{'decoded whole':>24}")  # fmt: skip
    stall = "stall ms med/max"
    print(f"{'':42} {'MB':>6} | {stall:>16} {'MB':>7} | {stall:>16} {'MB':>7}")
    for name, (problem, data) in shapes(problems).items():
        ours = await _measured(_budgeted, problem, data)
        whole = await _measured(_whole, problem, data)
        print(f"{name:42} {len(data) / MB:6.1f} | {_row(ours)} | {_row(whole)}")
    print("targets: stall < 20 ms, extra memory < 50 MB (the report's own bytes included)")


def _row(figures: tuple[float, float, float]) -> str:
    median, worst, memory = figures
    return f"{median:8.1f} {worst:7.1f} {memory:7.1f}"


def main() -> None:
    print("\n== reports: a hostile worker's report, what the bot pays for it ==")
    tune_interpreter()  # as `studybot` does at start
    asyncio.run(_run())
