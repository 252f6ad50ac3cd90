"""Escapes from the restricted layer, by technique family: each runs as a real submission in a
real worker and must be refused (a compile or runtime error), print nothing it should not,
and leave the sandbox grading normally.

Sources are public write-ups and advisories of the technique (the payloads are our own);
"issue 10" is this project's report of four escapes that worked before the allowlists."""

from __future__ import annotations

import pytest

from bot.grades import Verdict
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import Problem
from tests.grading.conftest import PATIENT, reference

pytestmark = pytest.mark.asyncio(loop_scope="module")

REFUSED = {Verdict.COMPILE_ERROR, Verdict.RUNTIME_ERROR}
LEAKS = ("<module", "<frame", "<code", "<traceback", "environ", "root:", "__builtins__",
         "_getattr_", "function guarded")  # fmt: skip
GEN = "g = heapq.merge([1, 3], [2])\nnext(g)\n"

PAYLOADS: list[tuple[str, str]] = [
    # --- issue 10: string annotations evaluated with real eval and builtins
    (
        "get_type_hints",
        'import typing\ndef f(x: "os"):\n    pass\nprint(typing.get_type_hints(f, {}))',
    ),
    (
        "singledispatch.register reads annotations",
        "import functools\n@functools.singledispatch\ndef f(x):\n    pass\n"
        'def g(x: "list"):\n    pass\nf.register(g)',
    ),
    ("NamedTuple string field", "import typing\nP = typing.NamedTuple('P', [('x', 'os')])"),
    ("TypedDict string field", "import typing\nT = typing.TypedDict('T', {'x': 'os'})"),
    ("ForwardRef with module=", "import typing\nprint(typing.ForwardRef('path', module='os'))"),
    (
        "namedtuple module=",
        "import collections\nP = collections.namedtuple('P', 'x', module='os')\nprint(P)",
    ),
    (
        "namedtuple rename=",
        "import collections\nP = collections.namedtuple('P', ['_a'], rename=True)",
    ),
    # --- issue 10: update_wrapper/wraps as getattr/setattr with chosen names, globals merge
    (
        "update_wrapper globals merge",
        "import functools, typing\nclass O:\n    pass\no = O()\ndef f():\n    pass\n"
        "functools.update_wrapper(o, f, assigned=('__globals__',), updated=())\n"
        "functools.update_wrapper(o, typing.cast, assigned=(), updated=('__globals__',))",
    ),
    (
        "wraps as a getattr",
        "import functools\ndef f():\n    pass\nw = functools.wraps(f, assigned=('__code__',))",
    ),
    # --- str.format by proxy: UserString, GenericAlias, typing aliases
    ("UserString.format", "import collections\nprint(collections.UserString('{0}').format(1))"),
    (
        "UserString.format from the class",
        "import collections\nU = collections.UserString\nprint(U.format(U('{0.x}'), 1))",
    ),
    (
        "GenericAlias(str) forwards format",
        "A = type(list[int])(str, ())\nprint(A.format('{0.__class__}', 1))",
    ),
    ("typing alias forwards format", "import typing\nprint(typing.Final[str].format)"),
    # str.format walks attributes in C: https://github.com/pallets/jinja/pull/635
    ("str.format traversal", "print('{0.__class__.__mro__}'.format(1))"),
    # format_map is format: https://github.com/zopefoundation/RestrictedPython/pull/258
    ("format_map traversal", "print('{x.__class__}'.format_map({'x': 1}))"),
    # format via getattr by name: https://github.com/huggingface/smolagents/pull/2271
    ("format through getattr", "print(getattr('{0.__class__}', 'format')(1))"),
    ("format through str class", "print(getattr(str, 'format')('{0.__class__}', 1))"),
    (
        "format through reduce(getattr)",
        "import functools\nprint(functools.reduce(getattr, ['format'], '{0.__class__}')(1))",
    ),
    ("format through map(getattr)", "print(list(map(getattr, ['{0.__class__}'], ['format'])))"),
    # the globals chain in a format field: https://github.com/Skyvern-AI/skyvern/pull/7039
    ("format field reaching globals", "print('{0.__globals__[sys]}'.format(max))"),
    # f-strings parse their fields: https://github.com/ctf-wiki/ctf-wiki/issues/381
    ("f-string attribute", "x = 1\nprint(f'{x.__class__}')"),
    # --- metaclasses other than type, by any path
    ("class M(typing.Type)", "import typing\nclass M(typing.Type):\n    pass"),
    ("ABCMeta through an alias", "import typing\nclass I(typing.Iterable):\n    pass"),
    ("Generic through a subscripted alias", "import typing\nclass L(typing.List[int]):\n    pass"),
    ("three-argument type", "X = type('X', (), {})"),
    ("type(type) is still the gate", "T = type(type(int))\nX = T('X', (object,), {})"),
    ("subclass of type", "class M(type):\n    pass"),
    ("metaclass keyword", "class A(metaclass=type):\n    pass"),
    ("mro", "print(type(1).mro())"),
    # --- frames: library generators, throw into library code, the harness
    # generator frames: https://github.com/danthedeckie/simpleeval/issues/138
    ("own generator frame", "def g():\n    yield 1\nprint(getattr(g(), 'gi_' + 'frame'))"),
    # generator frames keep globals: https://github.com/odoo/odoo/pull/254114
    ("heapq.merge frame", "import heapq\n" + GEN + "print(getattr(g, 'gi_frame'))"),
    ("heapq.merge code", "import heapq\n" + GEN + "print(getattr(g, 'gi_code'))"),
    (
        "throw into library code",
        "import heapq\n" + GEN + "try:\n    g.throw(ValueError)\n"
        "except ValueError as e:\n    print(getattr(e, '__traceback__'))",
    ),
    (
        "exception traceback by name",
        "try:\n    1/0\nexcept Exception as e:\n    tb = getattr(e, '__tra' + 'ceback__')",
    ),
    # --- dunder names built at run time: https://smarttldr.pages.dev/en/topic/
    # python-sandbox-escape-prevention/deep-dive
    ("computed __globals__", "def f():\n    pass\nprint(getattr(f, '__' + 'globals' + '__'))"),
    ("subclasses by name", "print(getattr(object, '__subclasses__')())"),
    # type.__dict__ to a mappingproxy: https://github.com/crewAIInc/crewAI/pull/4643
    ("type.__dict__ by name", "print(getattr(int, '__dict__'))"),
    ("__reduce_ex__ to copyreg", "print(getattr(1, '__reduce_ex__')(2))"),
    ("fullwidth underscores normalise to dunders", "def f():\n    pass\nprint(f.＿＿globals＿＿)"),
    # --- modules and namespaces: subscription is checked too
    ("a module attribute that is a module", "import collections\nprint(collections.abc)"),
    ("typing.sys", "import typing\nprint(typing.sys)"),
    ("dunder import", "__import__('os')"),
    ("import numpy.lib", "import numpy.lib"),
    ("globals()", "print(globals())"),
    # Building and breaking a Python sandbox (PyCon 2014): builtins reach files
    ("open", "print(open('/etc/passwd').read())"),
    # --- numpy: raw memory, files, pickles (https://github.com/jpivarski-talks/
    # python-numpy-mini-course: frombuffer, flags.writeable, ctypes)
    ("ndarray.ctypes", "import numpy as np\nprint(np.arange(3).ctypes.data)"),
    ("ndarray.tofile", "import numpy as np\nnp.zeros(3).tofile('/tmp/x')"),
    ("ndarray.dumps (pickle)", "import numpy as np\nprint(np.zeros(3).dumps())"),
    ("ndarray.base", "import numpy as np\nprint(np.zeros(4)[1:].base)"),
    ("numpy scalar dumps", "import numpy as np\nprint(np.float64(1).dumps())"),
    ("np.load", "import numpy as np\nnp.load('/etc/passwd', allow_pickle=True)"),
    ("np.lib.stride_tricks", "import numpy as np\nprint(np.lib.stride_tricks.as_strided)"),
    ("np.frombuffer", "import numpy as np\na = np.frombuffer(b'abc', dtype=np.uint8)"),
    (
        "flags.writeable",
        "import numpy as np\na = np.zeros(2)\na.flags.writeable = False\na.flags.writeable = True",
    ),
    ("np.vectorize", "import numpy as np\nnp.vectorize(print)"),
    ("np.ctypeslib", "import numpy as np\nprint(np.ctypeslib)"),
    (
        "ndarray over a small buffer",
        "import numpy as np\n"
        "a = np.ndarray((10**6,), dtype=np.uint8, buffer=np.zeros(2, dtype=np.uint8))",
    ),
    ("numpy via the C import path", "import numpy as np\nprint(np.linalg.norm.__globals__)"),
    # --- writes to library objects
    (
        "total_ordering on a library class",
        "import functools, collections\nfunctools.total_ordering(collections.Counter)",
    ),
    ("write to a library class", "import collections\ncollections.Counter.most_common = 1"),
]


@pytest.fixture(scope="module")
def patient(sandbox: Sandbox, problems: dict[str, Problem]) -> Grader:
    """Every payload must be refused, never timed out: 20 s of CPU, far more than any needs,
    so a slow machine cannot turn a refusal into a time limit."""
    return Grader(sandbox, problems, PATIENT)


@pytest.mark.parametrize("code", [c for _, c in PAYLOADS], ids=[n for n, _ in PAYLOADS])
async def test_escape_is_refused(patient: Grader, problems: dict[str, Problem], code: str) -> None:
    grade = await patient.run(code)
    assert grade.verdict in REFUSED, grade
    assert not any(leak in grade.output for leak in LEAKS), grade.output
    after = await patient.grade(problems["rotate-matrix"], reference("rotate-matrix"))
    assert after.verdict is Verdict.ACCEPTED, after


HARNESS_SPY = """
def rotate(matrix):
    def probe():
        yield 1
    g = probe()
    frame = getattr(g, 'gi_frame')  # refused; else f_back would be the harness
    tests = getattr(getattr(frame, 'f_back'), 'f_locals')['job']['tests']
    print(tests)
"""


async def test_a_solution_cannot_read_the_harness_frames_or_other_tests(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    grade = await grader.grade(problems["rotate-matrix"], HARNESS_SPY)
    assert grade.verdict is Verdict.RUNTIME_ERROR, grade
    assert "[[" not in grade.output


UNICODE_NAMES = """
def my_pow(x, n):
    größe, ergebnis = abs(n), 1.0
    while größe:
        if größe & 1:
            ergebnis *= x
        x *= x
        größe >>= 1
    return ergebnis if n >= 0 else 1 / ergebnis
"""


async def test_a_solution_with_non_ascii_names_is_accepted(
    grader: Grader, problems: dict[str, Problem]
) -> None:
    grade = await grader.grade(problems["fast-power"], UNICODE_NAMES)
    assert grade.verdict is Verdict.ACCEPTED, grade


async def test_f_strings_still_format(grader: Grader) -> None:
    grade = await grader.run("x, w = 3.14159, 8\nprint(f'{x:>{w}.2f}|{x!r}|{\"a\"}')")
    assert grade.verdict is Verdict.ACCEPTED, grade
    assert grade.output == "    3.14|3.14159|a\n"


async def test_classes_solutions_write_still_work(grader: Grader) -> None:
    code = """
import collections, functools, typing

Point = collections.namedtuple('Point', 'x y', defaults=(0,))

class Tally(collections.Counter):
    def top(self):
        return self.most_common(1)[0][0]

@functools.total_ordering
class Job(Exception):
    def __init__(self, p):
        self.p = p
    def __lt__(self, other):
        return self.p < other.p
    def __eq__(self, other):
        return self.p == other.p

def f(xs: typing.List[int]) -> typing.Optional[int]:
    return max(xs) if xs else None

print(Point(1).x + Point(1, 2).y, Tally('abca').top(), Job(1) <= Job(2), f([3, 1]),
      isinstance(int, type), type(3) is int)
"""
    grade = await grader.run(code)
    assert grade.verdict is Verdict.ACCEPTED, grade
    assert grade.output == "3 a True 3 True True\n"
