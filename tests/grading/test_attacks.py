"""The attack corpus: each is refused or contained, and the next submission grades normally.

Every attack runs as a real submission in a real worker. "Contained" means: not accepted as
a solution, no secret in what comes back, and the sandbox still grades the reference right
after. The layers under RestrictedPython (limits, namespaces, seccomp) are tested directly
in test_isolation.py.
"""

from __future__ import annotations

import pytest

from bot.grades import Grade, Verdict
from bot.grading.grader import Grader, GraderConfig
from bot.grading.pool import Sandbox
from bot.grading.problems import Problem
from tests.grading.conftest import PATIENT, reference

pytestmark = pytest.mark.asyncio(loop_scope="module")

REFUSED = {Verdict.COMPILE_ERROR, Verdict.RUNTIME_ERROR}

# (name, code run as a snippet, verdicts that count as refused)
ATTACKS: list[tuple[str, str, set[Verdict]]] = [
    ("import os", "import os\nprint(os.environ)", REFUSED),
    ("import sys", "import sys\nprint(sys.modules)", REFUSED),
    ("import subprocess", "import subprocess\nsubprocess.run(['id'])", REFUSED),
    ("import ctypes", "import ctypes", REFUSED),
    ("import builtins", "import builtins\nbuiltins.open('/etc/passwd')", REFUSED),
    ("import socket", "import socket\nsocket.create_connection(('1.1.1.1', 53))", REFUSED),
    ("import time (sleep forever)", "import time\ntime.sleep(10**6)", REFUSED),
    ("from os import system", "from os import system\nsystem('id')", REFUSED),
    ("relative import", "from . import harness", REFUSED),
    ("__import__", "__import__('os').system('id')", REFUSED),
    ("open", "print(open('/etc/passwd').read())", REFUSED),
    ("eval", "eval('1+1')", REFUSED),
    ("exec", "exec('import os')", REFUSED),
    ("compile", "compile('1', 'x', 'eval')", REFUSED),
    ("globals()", "print(globals())", REFUSED),
    ("vars()", "print(vars())", REFUSED),
    ("type() to reach object", "print(type(1).mro())", REFUSED),
    ("subclasses walk", "print(().__class__.__bases__[0].__subclasses__())", REFUSED),
    ("getattr dunder", "print(getattr((), '__class__'))", REFUSED),
    ("function globals", "def f(): pass\nprint(f.__globals__)", REFUSED),
    ("getattr globals", "def f(): pass\nprint(getattr(f, '__globals__'))", REFUSED),
    ("generator frame", "g = (i for i in [1])\nprint(g.gi_frame.f_back)", REFUSED),
    ("generator frame by name", "g = (i for i in [1])\nprint(getattr(g, 'gi_frame'))", REFUSED),
    ("generator code", "g = (i for i in [1])\nprint(getattr(g, 'gi_code'))", REFUSED),
    ("coroutine frame", "async def c():\n    pass\nprint(c().cr_frame)", REFUSED),
    (
        "traceback frame",
        "try:\n    1/0\nexcept Exception as e:\n    print(e.__traceback__)",
        REFUSED,
    ),
    (
        "traceback by name",
        "try:\n    1/0\nexcept Exception as e:\n    print(getattr(e, '__traceback__'))",
        REFUSED,
    ),
    ("str.format traversal", "print('{0.__class__.__mro__}'.format(1))", REFUSED),
    ("format_map traversal", "print('{x.__class__}'.format_map({'x': 1}))", REFUSED),
    ("format via getattr", "print(getattr('{0.__class__}', 'format')(1))", REFUSED),
    (
        "string.Formatter",
        "import string\nprint(string.Formatter().format('{0.__class__}', 1))",
        REFUSED,
    ),
    ("typing reaches sys", "import typing\nprint(typing.sys.modules['os'])", REFUSED),
    ("module attribute that is a module", "import collections\nprint(collections.abc)", REFUSED),
    (
        "guard shadowing (positional-only)",
        "def f(_getattr_, /):\n    return ().__class__\nprint(f(getattr))",
        REFUSED,
    ),
    ("guard shadowing (assignment)", "_getattr_ = getattr\nprint(().__class__)", REFUSED),
    ("write to a module proxy", "import math\nmath.sqrt = print\nprint(math.sqrt)", REFUSED),
    ("setattr on a builtin type", "setattr(int, 'evil', 1)", REFUSED),
    ("except* (TryStar)", "try:\n    pass\nexcept* Exception:\n    pass", REFUSED),
    ("deep recursion", "def f(n):\n    return f(n + 1)\nf(0)", {Verdict.RUNTIME_ERROR}),
    ("memory bomb", "x = [0] * (10**10)", {Verdict.MEMORY_LIMIT_EXCEEDED}),
    ("string memory bomb", "s = 'a' * (2**34)", {Verdict.MEMORY_LIMIT_EXCEEDED}),
    (
        "growing memory",
        "xs = []\nwhile True:\n    xs.append('x' * 10**6)",
        {Verdict.MEMORY_LIMIT_EXCEEDED},
    ),
    ("deeply nested source", "x = " + "(" * 100_000 + ")" * 100_000, {Verdict.COMPILE_ERROR}),
    ("huge literal source", "x = [" + "1," * 400_000 + "]\nprint(len(x))", {Verdict.COMPILE_ERROR}),
    ("infinite loop", "while True:\n    pass", {Verdict.TIME_LIMIT_EXCEEDED}),
    (
        "catch BaseException around a loop",
        "while True:\n    try:\n        while True:\n            pass\n"
        "    except BaseException:\n        pass",
        {Verdict.TIME_LIMIT_EXCEEDED},
    ),
    (
        "catch MemoryError and go on",
        "while True:\n    try:\n        x = [0] * (10**9)\n    except BaseException:\n        pass",
        {Verdict.TIME_LIMIT_EXCEEDED},
    ),
    ("iter forever", "for _ in iter(int, 1):\n    pass", {Verdict.TIME_LIMIT_EXCEEDED}),
    ("output flood", "while True:\n    print('x' * 10000)", {Verdict.TIME_LIMIT_EXCEEDED}),
    ("raise SystemExit", "raise SystemExit(0)", {Verdict.RUNTIME_ERROR}),
    ("raise KeyboardInterrupt", "raise KeyboardInterrupt", {Verdict.RUNTIME_ERROR}),
    (
        "exception whose str fails",
        "class E(Exception):\n    def __str__(self):\n        raise E()\nraise E()",
        REFUSED,
    ),
]


@pytest.fixture(scope="module")
def fast(sandbox: Sandbox, problems: dict[str, Problem]) -> Grader:
    """A grader with a 1 s CPU limit for snippets, so runaway attacks end quickly."""
    return Grader(sandbox, problems, GraderConfig(run_time_limit=1.0, deadline_margin=1.0))


@pytest.fixture(scope="module")
def patient(sandbox: Sandbox, problems: dict[str, Problem]) -> Grader:
    """A grader for attacks that must end some other way than by the time limit (refused,
    out of memory): 20 s of CPU, so a slow machine cannot turn their verdict into a time
    limit (compiling the huge literal alone takes over a second of CPU here)."""
    return Grader(sandbox, problems, PATIENT)


async def assert_still_grading(grader: Grader, problems: dict[str, Problem]) -> None:
    after = await grader.grade(problems["rotate-matrix"], reference("rotate-matrix"))
    assert after.verdict is Verdict.ACCEPTED, after


@pytest.mark.parametrize(("code", "expected"), [(c, e) for _, c, e in ATTACKS],
                         ids=[name for name, _, _ in ATTACKS])  # fmt: skip
async def test_attack_is_refused_or_contained(
    fast: Grader, patient: Grader, problems: dict[str, Problem], code: str, expected: set[Verdict]
) -> None:
    # Only an attack that never ends gets the 1 s limit: its verdict is a time limit on any
    # machine; every other one has twenty times what it needs on this one.
    grade = await (fast if Verdict.TIME_LIMIT_EXCEEDED in expected else patient).run(code)
    assert grade.verdict in expected, grade
    assert len(grade.output) <= 4000  # the cap holds whatever was printed
    assert "root:" not in grade.output  # nothing of /etc/passwd
    await assert_still_grading(patient, problems)  # a reference: never against the clock


async def test_an_object_that_equals_everything_cannot_pass(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    code = """
class Anything:
    def __eq__(self, other):
        return True

def my_pow(x, n):
    return Anything()
"""
    grade = await grader.grade(problems["fast-power"], code)
    assert grade.verdict is Verdict.RUNTIME_ERROR
    assert grade.message is not None and "not plain data" in grade.message


async def test_a_solution_cannot_carry_state_between_tests(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    code = """
seen = []

def rotate(matrix):
    seen.append(matrix)
    first = seen[0]  # the first test's matrix, rotated: a fresh input every time means
    for i in range(len(matrix)):  # this cannot stand in for the current one
        matrix[i] = list(first[i]) if i < len(first) else matrix[i]
"""
    grade = await grader.grade(problems["rotate-matrix"], code)
    assert grade.verdict is Verdict.WRONG_ANSWER


async def test_own_classes_may_set_attributes(grader: Grader, problems: dict[str, Problem]) -> None:
    code = """
class Rotator:
    def __init__(self, matrix):
        self.matrix = matrix
        self.n = len(matrix)

    def run(self):
        m, n = self.matrix, self.n
        for i in range(n):
            for j in range(i + 1, n):
                m[i][j], m[j][i] = m[j][i], m[i][j]
        for row in m:
            row.reverse()

def rotate(matrix: list[list[int]]) -> None:
    Rotator(matrix).run()
"""
    grade = await grader.grade(problems["rotate-matrix"], code)
    assert grade.verdict is Verdict.ACCEPTED, grade


async def test_results_too_large_to_return_are_refused(grader: Grader) -> None:
    grade: Grade = await grader.run("x = [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]\nprint(len(x))")
    assert grade.verdict is Verdict.ACCEPTED  # nesting in the solution is fine
    deep = "def rotate(m):\n    x = []\n    for _ in range(100):\n        x = [x]\n    m[0] = x\n"
    problems_grade = await grader.grade(grader.problems["rotate-matrix"], deep)
    assert problems_grade.verdict is Verdict.RUNTIME_ERROR
    assert "too large or too deeply nested" in (problems_grade.message or "")


async def test_printed_or_returned_text_cannot_forge_the_report(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    code = (
        "def my_pow(x, n):\n"
        '    print(\'\\n{"event": "done", "output": "", "dropped": 0}\')\n'
        "    return 'done'\n"
    )
    grade = await grader.grade(problems["fast-power"], code)
    assert grade.verdict is Verdict.WRONG_ANSWER
    assert grade.message == "expected a number, got str"
    assert '{"event": "done"' in grade.output  # shown as what it is: printed text
    assert all(t.verdict is Verdict.WRONG_ANSWER for t in grade.tests)
