"""numpy in solutions: the stable-softmax problem graded for real, values converted to plain
data, and the tolerance checker for float arrays."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bot.grades import Verdict
from bot.grading.checkers import Outcome, allclose
from bot.grading.grader import Grader
from bot.grading.problems import Problem
from bot.grading.sandbox.plain import Unserializable, plain
from bot.i18n import english
from tests.grading.conftest import reference

in_sandbox = pytest.mark.asyncio(loop_scope="module")  # the module's sandbox, started once

NAIVE = """
import numpy as np

def softmax(logits):
    e = np.exp(np.asarray(logits, dtype=float))
    return e / e.sum(axis=1, keepdims=True)
"""
PURE_PYTHON = """
import math

def softmax(logits):
    out = []
    for row in logits:
        top = max(row)
        e = [math.exp(x - top) for x in row]
        total = sum(e)
        out.append([v / total for v in e])
    return out
"""
GLOBAL_MAX = """
import numpy as np

def softmax(logits):
    x = np.asarray(logits, dtype=float)
    e = np.exp(x - x.max())
    return e / e.sum(axis=1, keepdims=True)
"""
COLUMNS = """
import numpy as np

def softmax(logits):
    x = np.asarray(logits, dtype=float)
    e = np.exp(x - x.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)
"""


@in_sandbox
async def test_the_stable_reference_is_accepted(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    grade = await grader.grade(problems["stable-softmax"], reference("stable-softmax"))
    assert grade.verdict is Verdict.ACCEPTED, grade
    assert grade.passed == len(problems["stable-softmax"].cases) >= 10


@in_sandbox
async def test_numpys_exceptions_can_be_caught_and_named(grader: Grader) -> None:
    """`except np.linalg.LinAlgError:` needs the class itself, and `type(e)` of the gate's
    own refusal answers with a builtin class a solution can name."""
    grade = await grader.run(
        "import numpy as np\n"
        "try:\n    np.linalg.inv(np.zeros((2, 2)))\n"
        "except np.linalg.LinAlgError as e:\n"
        "    print('singular', type(e) is np.linalg.LinAlgError)\n"
        "try:\n    np.ndarray((2,), np.uint8)\n"
        "except Exception as e:\n    print(type(e) is TypeError)\n"
    )  # fmt: skip
    assert grade.output == "singular True\nTrue\n", grade


@in_sandbox
async def test_plain_lists_are_accepted_too(grader: Grader, problems: dict[str, Problem]) -> None:
    grade = await grader.grade(problems["stable-softmax"], PURE_PYTHON)
    assert grade.verdict is Verdict.ACCEPTED, grade


@in_sandbox
@pytest.mark.parametrize("code", [NAIVE, GLOBAL_MAX, COLUMNS], ids=["naive", "global", "axis0"])
async def test_unstable_or_wrong_axis_softmax_is_refused(
    grader: Grader, problems: dict[str, Problem], code: str
) -> None:
    grade = await grader.grade(problems["stable-softmax"], code)
    assert grade.verdict in {Verdict.WRONG_ANSWER, Verdict.RUNTIME_ERROR}, grade
    assert any(t.verdict is Verdict.ACCEPTED for t in grade.tests)  # small logits pass


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (np.float64(1.5), 1.5),
        (np.int32(-3), -3),
        (np.bool_(True), True),
        (np.arange(6).reshape(2, 3), [[0, 1, 2], [3, 4, 5]]),
        (np.array(2.5), 2.5),
        ([np.float32(0.5), 1], [0.5, 1]),
        (np.zeros((0, 3)), []),
    ],
)
def test_numpy_values_become_plain_data(value: object, expected: object) -> None:
    result = plain(value)
    assert result == expected
    assert type(result) is type(expected)


def test_non_finite_floats_stay_floats_as_python_floats_do() -> None:
    result = plain(np.array([np.nan, np.inf, -np.inf]))
    assert math.isnan(result[0]) and result[1:] == [math.inf, -math.inf]
    assert all(type(v) is float for v in result)


@pytest.mark.parametrize(
    "value",
    [np.zeros((1200, 1000)), np.array(["a"]), np.array([1j]), np.array([object()])],
    ids=["too-large", "strings", "complex", "objects"],
)
def test_other_numpy_values_are_refused(value: object) -> None:
    with pytest.raises(Unserializable):
        plain(value)


@pytest.mark.parametrize(
    ("got", "verdict"),
    [
        ([[0.5, 0.5]], None),
        ([[0.5 + 1e-9, 0.5]], None),
        ([[0.5, 0.51]], "element 1"),
        ([[0.5], [0.5]], "shape"),
        ([[0.5, math.nan]], "element 1"),
        ([[0.5, "0.5"]], "numbers"),
        ([[0.5, True]], "numbers"),
        ([[0.5, 0.5], [1.0]], "numbers"),
    ],
)
def test_allclose_compares_shape_then_elements(got: object, verdict: str | None) -> None:
    reason = allclose([], [[0.5, 0.5]], Outcome(got, None))
    words = english(reason) if reason is not None else ""
    assert (reason is None) if verdict is None else (verdict in words), reason


def test_allclose_matches_non_finite_values_exactly() -> None:
    assert allclose([], [math.nan, math.inf], Outcome([math.nan, math.inf], None)) is None
    assert allclose([], [math.inf], Outcome([-math.inf], None)) is not None
