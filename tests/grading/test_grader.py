"""The three problems graded for real: in fresh worker processes, through the judge."""

from __future__ import annotations

import pytest

from bot.grades import Verdict
from bot.grading.grader import Grader
from bot.grading.problems import Problem
from tests.grading.conftest import reference

pytestmark = pytest.mark.asyncio(loop_scope="module")

ROTATE_COPY = """
def rotate(matrix):
    return [list(row) for row in zip(*matrix[::-1])]
"""
ROTATE_COUNTER_CLOCKWISE = """
def rotate(matrix):
    n = len(matrix)
    rotated = [list(row) for row in zip(*matrix)][::-1]
    for i in range(n):
        matrix[i][:] = rotated[i]
"""
ROTATE_TRANSPOSE_ONLY = """
def rotate(matrix: list[list[int]]) -> None:
    n = len(matrix)
    for i in range(n):
        for j in range(i + 1, n):
            matrix[i][j], matrix[j][i] = matrix[j][i], matrix[i][j]
"""
POW_LINEAR = """
def my_pow(x, n):
    result = 1.0
    for _ in range(abs(n)):
        result *= x
    return result if n >= 0 else 1 / result
"""
POW_OPERATOR = "def my_pow(x, n):\n    return x ** n\n"
POW_BUILTIN = "def my_pow(x, n):\n    return float(pow(x, n))\n"
POW_MATH = "import math as m\n\ndef my_pow(x, n):\n    return m.pow(x, n)\n"
POW_NEGATIVE_WRONG = """
def my_pow(x, n):
    result = 1.0
    base, k = x, abs(n)
    while k:
        if k & 1:
            result *= base
        base *= base
        k >>= 1
    return result  # forgets 1/result for negative n
"""
FUSE_ONE_USER_RULE = """
ELEMENTWISE = {"add", "sub", "mul", "div", "relu", "gelu", "sigmoid", "tanh", "exp", "neg"}

def fuse(graph):
    nodes, outputs = graph["nodes"], set(graph["outputs"])
    users = {n["name"]: [] for n in nodes}
    for n in nodes:
        for s in n["inputs"]:
            if s in users:
                users[s].append(n["name"])
    ops = {n["name"]: n["op"] for n in nodes}
    label = {}
    for n in reversed(nodes):
        name = n["name"]
        if n["op"] not in ELEMENTWISE:
            continue
        u = users[name]
        if name not in outputs and len(u) == 1 and ops[u[0]] in ELEMENTWISE:
            label[name] = label[u[0]]
        else:
            label[name] = name
    groups = {}
    for n in nodes:
        if n["name"] in label:
            groups.setdefault(label[n["name"]], []).append(n["name"])
    return list(groups.values())
"""
FUSE_SINGLETONS = """
def fuse(graph):
    ew = {"add", "sub", "mul", "div", "relu", "gelu", "sigmoid", "tanh", "exp", "neg"}
    return [[n["name"]] for n in graph["nodes"] if n["op"] in ew]
"""
FUSE_ALL_TOGETHER = """
def fuse(graph):
    ew = {"add", "sub", "mul", "div", "relu", "gelu", "sigmoid", "tanh", "exp", "neg"}
    return [[n["name"] for n in graph["nodes"] if n["op"] in ew]]
"""


@pytest.mark.parametrize("problem_id", ["rotate-matrix", "fast-power", "graph-fusion"])
async def test_the_reference_passes_every_test(
    grader: Grader, problems: dict[str, Problem], problem_id: str
) -> None:
    grade = await grader.grade(problems[problem_id], reference(problem_id))
    assert grade.verdict is Verdict.ACCEPTED, grade
    assert grade.passed == len(problems[problem_id].cases) >= 10
    assert grade.cpu_ms is not None and grade.peak_kb is not None


async def test_a_rotated_copy_is_wrong_and_the_reply_says_why(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    grade = await grader.grade(problems["rotate-matrix"], ROTATE_COPY)
    assert grade.verdict is Verdict.WRONG_ANSWER
    first = grade.tests[0]
    assert first.sample and first.verdict is Verdict.WRONG_ANSWER
    assert first.message is not None and "in place" in first.message
    assert first.input == "[[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]"
    assert first.expected == "[[7, 4, 1], [8, 5, 2], [9, 6, 3]]"
    assert first.got == "[[1, 2, 3], [4, 5, 6], [7, 8, 9]]"  # the argument, untouched


@pytest.mark.parametrize("code", [ROTATE_COUNTER_CLOCKWISE, ROTATE_TRANSPOSE_ONLY])
async def test_wrong_rotations_are_wrong_answers(
    grader: Grader, problems: dict[str, Problem], code: str
) -> None:
    grade = await grader.grade(problems["rotate-matrix"], code)
    assert grade.verdict is Verdict.WRONG_ANSWER
    assert grade.passed < len(grade.tests)


async def test_a_linear_power_loop_runs_out_of_time(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    grade = await grader.grade(problems["fast-power"], POW_LINEAR)
    assert grade.verdict is Verdict.TIME_LIMIT_EXCEEDED
    assert any(t.verdict is Verdict.SKIPPED for t in grade.tests)


@pytest.mark.parametrize(
    ("code", "rule"), [(POW_OPERATOR, "**"), (POW_BUILTIN, "pow"), (POW_MATH, "math.pow")]
)
async def test_banned_constructs_are_rule_violations(
    grader: Grader, problems: dict[str, Problem], code: str, rule: str
) -> None:
    grade = await grader.grade(problems["fast-power"], code)
    assert grade.verdict is Verdict.RULE_VIOLATION
    assert grade.message is not None and f"`{rule}`" in grade.message


async def test_a_banned_name_in_a_comment_or_string_is_fine(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    code = "# no pow() and no ** here\n" + reference("fast-power") + '\nNOTE = "math.pow"\n'
    grade = await grader.grade(problems["fast-power"], code)
    assert grade.verdict is Verdict.ACCEPTED


async def test_negative_exponents_forgotten_is_a_wrong_answer(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    grade = await grader.grade(problems["fast-power"], POW_NEGATIVE_WRONG)
    assert grade.verdict is Verdict.WRONG_ANSWER
    sample = next(t for t in grade.tests if t.sample and t.verdict is Verdict.WRONG_ANSWER)
    assert sample.input == "[2.0, -2]" and sample.expected == "0.25" and sample.got == "4.0"


async def test_legal_but_not_minimal_fusion_is_wrong_and_says_so(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    for code in (FUSE_ONE_USER_RULE, FUSE_SINGLETONS):
        grade = await grader.grade(problems["graph-fusion"], code)
        assert grade.verdict is Verdict.WRONG_ANSWER
        assert grade.message is not None and "not minimal" in grade.message


async def test_illegal_fusion_is_wrong_and_names_the_rule(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    grade = await grader.grade(problems["graph-fusion"], FUSE_ALL_TOGETHER)
    assert grade.verdict is Verdict.WRONG_ANSWER
    assert grade.message is not None and "used outside" in grade.message


async def test_errors_and_missing_functions_get_their_verdicts(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    rotate = problems["rotate-matrix"]
    crash = await grader.grade(rotate, "def rotate(m):\n    n = len(m)\n    return m[10**6]\n")
    assert crash.verdict is Verdict.RUNTIME_ERROR
    assert crash.message == "IndexError: list index out of range (line 3)"
    syntax = await grader.grade(rotate, "def rotate(m)\n    pass\n")
    assert syntax.verdict is Verdict.COMPILE_ERROR and "line 1" in (syntax.message or "")
    missing = await grader.grade(rotate, "def turn(m):\n    pass\n")
    assert missing.verdict is Verdict.COMPILE_ERROR and "`rotate`" in (missing.message or "")


async def test_debug_prints_do_not_change_the_verdict(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    code = reference("rotate-matrix").replace(
        "def rotate(matrix: list[list[int]]) -> None:\n",
        "def rotate(matrix: list[list[int]]) -> None:\n    print('debug', len(matrix))\n",
    )
    assert "print('debug'" in code
    grade = await grader.grade(problems["rotate-matrix"], code)
    assert grade.verdict is Verdict.ACCEPTED
    assert grade.output.startswith("debug 3\n")


async def test_a_main_block_is_dropped_with_a_note(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    code = reference("fast-power") + '\nif __name__ == "__main__":\n    print(my_pow(2.0, 10))\n'
    grade = await grader.grade(problems["fast-power"], code)
    assert grade.verdict is Verdict.ACCEPTED
    assert grade.output == ""
    assert any("__main__" in note for note in grade.notes)


async def test_run_shows_printed_output_and_errors(grader: Grader) -> None:
    ok = await grader.run("import math\nfor i in range(3):\n    print(i, math.factorial(i))\n")
    assert ok.verdict is Verdict.ACCEPTED and ok.output == "0 1\n1 1\n2 2\n"
    failed = await grader.run("print('before')\nraise ValueError('boom')\n")
    assert failed.verdict is Verdict.RUNTIME_ERROR
    assert failed.output == "before\n" and failed.message == "ValueError: boom (line 2)"


async def test_memory_exhausted_while_reporting_is_a_memory_limit_verdict(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    # The value fits in memory; its report (a copy as JSON) does not.
    code = "def my_pow(x, n):\n    return 'x' * (100 * 1024 * 1024)\n"
    grade = await grader.grade(problems["fast-power"], code)
    assert grade.verdict is Verdict.MEMORY_LIMIT_EXCEEDED, grade
    assert grade.tests[0].message == "memory limit exceeded"
