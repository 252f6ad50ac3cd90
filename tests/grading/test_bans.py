"""A problem's ban covers what computes the same, on the syntax tree and at run time.

fast-power bans `**`, `pow` and `math.pow`; a name built at run time (`getattr(math, "p" +
"ow")`) and numpy's power functions reached the banned computation before bans.py.
"""

from __future__ import annotations

import ast

import pytest

from bot.grades import Verdict
from bot.grading.grader import Grader
from bot.grading.problems import Problem
from bot.grading.sandbox.bans import POWER, expand
from bot.grading.sandbox.rules import find_banned

in_sandbox = pytest.mark.asyncio(loop_scope="module")

FAST_POWER_BANS = ("**", "pow", "math.pow")


def test_a_ban_expands_to_its_family_and_nothing_else() -> None:
    assert expand(("pow",)) == frozenset(POWER)
    assert {"numpy.power", "numpy.linalg.matrix_power"} <= expand(("**",))
    assert expand(("sorted",)) == {"sorted"}


@pytest.mark.parametrize(
    ("source", "rule", "line"),
    [
        ("import numpy as np\n\ny = np.power(2.0, 3)", "numpy.power", 3),
        ("import numpy as np\nnp.linalg.matrix_power([[2]], 3)", "numpy.linalg.matrix_power", 2),
        ("from numpy.linalg import matrix_power as mp", "numpy.linalg.matrix_power", 1),
        ("import numpy.linalg as la\nla.matrix_power", "numpy.linalg.matrix_power", 2),
        ("import numpy\nnumpy.logspace(3, 3, 1, base=2.0)", "numpy.logspace", 2),
    ],
)
def test_the_tree_check_finds_equivalents_with_their_line(
    source: str, rule: str, line: int
) -> None:
    violation = find_banned(ast.parse(source), FAST_POWER_BANS)
    assert violation is not None and (violation.rule, violation.line) == (rule, line)


def test_an_algorithm_computing_a_power_is_not_a_banned_name() -> None:
    source = "import math\ndef my_pow(x, n):\n    return math.exp(n * math.log(x))"
    assert find_banned(ast.parse(source), FAST_POWER_BANS) is None


RUN_TIME = {
    "math.pow by a built name": "import math\n\ndef my_pow(x, n):\n"
    "    return getattr(math, 'p' + 'ow')(x, n)\n",
    "np.power by a built name": "import numpy as np\n\ndef my_pow(x, n):\n"
    "    return float(getattr(np, 'po' + 'wer')(float(x), n))\n",
    "matrix_power by built names": "import numpy as np\n\ndef my_pow(x, n):\n"
    "    la = getattr(np, 'lin' + 'alg')\n"
    "    m = getattr(la, 'matrix_' + 'power')([[float(x)]], abs(n))\n"
    "    return float(m[0][0]) if n >= 0 else 1 / float(m[0][0])\n",
    "logspace by a built name": "import numpy as np\n\ndef my_pow(x, n):\n"
    "    return float(getattr(np, 'log' + 'space')(n, n, 1, base=float(x))[0])\n",
}


@in_sandbox
@pytest.mark.parametrize("code", list(RUN_TIME.values()), ids=list(RUN_TIME))
async def test_banned_names_are_absent_at_run_time(
    grader: Grader, problems: dict[str, Problem], code: str
) -> None:
    grade = await grader.grade(problems["fast-power"], code)
    assert grade.verdict is Verdict.RUNTIME_ERROR, grade
    assert "has no attribute" in (grade.message or ""), grade.message


@in_sandbox
async def test_np_power_is_found_on_the_tree(grader: Grader, problems: dict[str, Problem]) -> None:
    code = "import numpy as np\n\ndef my_pow(x, n):\n    return float(np.power(float(x), n))\n"
    grade = await grader.grade(problems["fast-power"], code)
    assert grade.verdict is Verdict.RULE_VIOLATION, grade


@in_sandbox
async def test_without_a_ban_the_same_names_work(grader: Grader) -> None:
    code = "import math, numpy as np\nprint(math.pow(2, 3), np.power(2, 3), pow(2, 3), 2 ** 3)"
    grade = await grader.run(code)
    assert grade.verdict is Verdict.ACCEPTED, grade
    assert grade.output == "8.0 8 8 8\n"
