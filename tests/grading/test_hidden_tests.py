"""Hidden tests stay hidden even from code that escaped the restricted layer, and in what a
member is shown of a verdict.

A plain-Python solution (no restricted compiler: `studybot sandbox exec --problem`) searches
its worker's heap and frames on every test. It must find its own input and nothing of any
test still to come, input or expected result: the parent hands inputs out one at a time, on
request, and keeps every expected result to itself. (What a worker was given for earlier
tests it may have kept; a hostile one would.)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.commands.verdicts import grade_reply
from bot.grades import Grade, Verdict
from bot.grading.grader import Grader
from bot.grading.judge import judge
from bot.grading.pool import Sandbox
from bot.grading.problems import Case, Problem
from bot.grading.timing import FixedLimits
from bot.types import Locale
from tests.fakes import REPO
from tests.grading.conftest import UNHURRIED, reference
from tests.waiting import PATIENCE

IN_THE_SANDBOX_LOOP = pytest.mark.asyncio(loop_scope="module")  # the `sandbox` fixture's loop
HUNT = Path(__file__).with_name("payloads") / "hunt_inputs.py"


def fingerprint(matrix: list[list[int]]) -> int:
    """As the payload computes it (tuple-of-int hashes are not randomised in CPython)."""
    return hash(tuple(tuple(row) for row in matrix))


@pytest.fixture(scope="module")
def hunted() -> list[dict[str, Any]]:
    env = {**os.environ, "STUDYBOT_CONTENT_DIR": str(REPO / "content")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "sandbox", "exec", "--json", "--problem", "rotate-matrix",
         str(HUNT)], capture_output=True, text=True, env=env, cwd=REPO, timeout=60, check=True,
    )  # fmt: skip
    tests: list[dict[str, Any]] = json.loads(done.stdout)["tests"]
    return tests


def test_each_test_finds_its_own_input_and_no_other(
    hunted: list[dict[str, Any]], problems: dict[str, Problem]
) -> None:
    cases = problems["rotate-matrix"].cases
    assert [t["i"] for t in hunted] == list(range(len(cases)))
    for test, case in zip(hunted, cases, strict=True):
        assert test["status"] == "ok", test
        found = set(test["value"])
        assert fingerprint(case.args()[0]) in found  # the search does find test data
        later = {fingerprint(c.args()[0]) for c in telling(cases) if c.number > case.number
                 and c.args() != case.args()}  # fmt: skip
        assert not found & later, f"test {case.number} saw a later test's input"


def test_no_expected_result_ever_reaches_the_worker(
    hunted: list[dict[str, Any]], problems: dict[str, Problem]
) -> None:
    cases = problems["rotate-matrix"].cases
    # rotate-matrix's expected results are the rotated matrices (checked in place).
    for test, case in zip(hunted, cases, strict=True):
        expected = {fingerprint(_rotated(c.args()[0])) for c in telling(cases)
                    if c.number > case.number and c.args() != case.args()}  # fmt: skip
        assert not set(test["value"]) & expected, case.number


def telling(cases: tuple[Case, ...]) -> list[Case]:
    """Cases whose matrices could only come from the test data: 3 x 3 and larger (a [[1]]
    or a 2 x 2 may exist in the interpreter's heap for reasons of its own)."""
    return [c for c in cases if len(c.args()[0]) >= 3]


def _rotated(matrix: list[list[int]]) -> list[list[int]]:
    return [list(row) for row in zip(*matrix[::-1], strict=True)]


# What a member sees of a verdict: nothing of a hidden test's input or expected result, from a
# solution in the restricted language or from plain Python that writes its own report lines.

WRONG = {  # a wrong result built from the right one, for hidden tests only
    "value": "result * 3 + 1",
    "shape": "result[:-1]",
    "element": "result + 1.0",
    "singletons": "[[member] for group in result for member in group]",
}


@pytest.fixture(scope="module")
def grader(sandbox: Sandbox, problems: dict[str, Problem]) -> Iterator[Grader]:
    """Limits as on a standard machine: these tests are about what is shown, not speed."""
    made = Grader(sandbox, problems, UNHURRIED, limits=FixedLimits())
    yield made
    made.close()


def spying(problem: Problem, wrong: str, *, raising: bool = False) -> str:
    """The reference, wrapped: it prints its arguments on every call, answers sample tests
    right and hidden ones wrong (or raises with the arguments in the message)."""
    samples = [c.args() for c in problem.cases if c.sample]
    failing = "raise ValueError(repr(args))" if raising else f"return {WRONG[wrong]}"
    return reference(problem.id) + textwrap.dedent(f"""
        right_answer = {problem.function}
        SAMPLES = {samples!r}

        def {problem.function}(*args):
            print("SEEN", args)
            result = right_answer(*args)
            if list(args) in SAMPLES:
                return result
            {failing}
        """)  # fmt: skip


def shown(grade: Grade) -> str:
    """Everything a member can see of `grade`, in both languages."""
    texts = []
    for locale in (Locale.EN, Locale.ZH):
        reply = grade_reply(grade, locale, "the problem")
        texts += [reply.title or "", reply.body, reply.footer or ""]
        texts += [f"{f.name}: {f.value}" for f in reply.fields]
    return "\n".join(texts)


def hidden_data(problem: Problem) -> list[str]:
    """Each hidden test's input and expected result as a solution could write them (their
    first 60 characters), where they are not also a sample's."""
    samples = [form for c in problem.cases if c.sample for form in _forms(c)]
    found = []
    for case in problem.cases:
        for form in _forms(case) if not case.sample else ():
            piece = form[:60]
            if len(piece) >= 6 and not any(piece in s for s in samples):
                found.append(piece)
    return found


def _forms(case: Case) -> list[str]:
    values = (case.args(), tuple(case.args()), case.expected)
    return [form for v in values for form in (json.dumps(v), repr(v), str(v))]


def leaks(problem: Problem, text: str) -> list[str]:
    return [piece for piece in hidden_data(problem) if piece in text]


@IN_THE_SANDBOX_LOOP
@pytest.mark.parametrize(
    ("problem_id", "wrong", "kind"),
    [
        ("fast-power", "value", "wrong value"),
        ("stable-softmax", "shape", "wrong length or shape"),
        ("stable-softmax", "element", "wrong value"),
        ("graph-fusion", "singletons", ""),
    ],
)
async def test_a_restricted_solution_that_prints_its_inputs_shows_nothing_hidden(
    grader: Grader, problems: dict[str, Problem], problem_id: str, wrong: str, kind: str
) -> None:
    problem = problems[problem_id]
    grade = await grader.grade(problem, spying(problem, wrong))
    samples = sum(c.sample for c in problem.cases)
    assert grade.verdict is Verdict.WRONG_ANSWER
    assert [t.verdict for t in grade.tests[:samples]] == [Verdict.ACCEPTED] * samples
    # what was printed while loading and during the samples, and nothing after
    assert grade.output.count("SEEN") == samples, grade.output[-300:]
    text = shown(grade)
    assert not leaks(problem, text)
    failed = next(t for t in grade.tests if t.verdict is Verdict.WRONG_ANSWER)
    assert not failed.sample and failed.reason is not None
    assert failed.reason.values == ()  # a kind of mismatch, no figure from the expected result
    assert failed.reason.key.startswith("mismatch.")
    if kind:
        assert kind in text
    for words in ("expected", "suffice", "element", "期望"):  # the checkers' words on values
        assert words not in text.lower()


@IN_THE_SANDBOX_LOOP
async def test_an_error_on_a_hidden_test_shows_its_type_and_line_not_its_message(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    problem = problems["fast-power"]
    grade = await grader.grade(problem, spying(problem, "value", raising=True))
    assert grade.verdict is Verdict.RUNTIME_ERROR
    failed = next(t for t in grade.tests if t.verdict is Verdict.RUNTIME_ERROR)
    assert not failed.sample
    assert re.fullmatch(r"ValueError \(line \d+\)", failed.message or ""), failed.message
    assert not leaks(problem, shown(grade))


STEAL = """
import json, os

STOLEN = []


def my_pow(x, n):
    if STOLEN:
        return 0.0
    # Ask for every input at once with forged "ready" lines, and read them off the socket.
    forged = json.dumps({"event": "test", "i": 9999, "status": "ok", "value": 0}) + "\\n"
    os.write(0, (forged * (COUNT - 1)).encode())
    data = b""
    while data.count(b"\\n") < COUNT - 1:
        data += os.read(0, 65536)
    STOLEN.extend(json.loads(line) for line in data.decode().splitlines())
    leak = json.dumps(STOLEN)
    for event in FORGED(leak):
        os.write(0, (json.dumps(event) + "\\n").encode())
    os._exit(0)
"""
FORGERIES = {
    "as samples and output": """
def FORGED(leak):
    return [{"event": "test", "i": 0, "status": "ok", "value": STOLEN, "cpu_ms": 0.1},
            {"event": "test", "i": 1, "status": "error", "kind": "runtime", "error": leak},
            {"event": "done", "output": "LEAK " + leak, "dropped": 0}]
""",
    "as the module's error": """
def FORGED(leak):
    return [{"event": "test", "i": -1, "status": "error", "kind": "runtime", "error": leak}]
""",
}


@IN_THE_SANDBOX_LOOP
@pytest.mark.parametrize("forgery", list(FORGERIES))
async def test_plain_python_that_steals_every_input_and_forges_its_report_shows_nothing(
    sandbox: Sandbox, problems: dict[str, Problem], forgery: str
) -> None:
    problem = problems["fast-power"]
    code = STEAL.replace("COUNT", str(len(problem.cases))) + FORGERIES[forgery]
    job = {"mode": "grade", "plain": True, "code": code, "function": problem.function,
           "tests": [c.args_json for c in problem.cases], "time_limit": 5,
           "memory_mb": problem.memory_mb, "output_cap": 4000}  # fmt: skip
    raw = await sandbox.run(job, PATIENCE)
    hidden = [json.dumps(c.args()).encode() for c in problem.cases if not c.sample]
    assert all(any(h in line for line in raw.lines) for h in hidden)  # the theft worked
    grade = judge(problem, raw)
    text = shown(grade)
    assert "LEAK" not in text
    assert not leaks(problem, text)
