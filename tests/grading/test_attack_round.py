"""An attack round on the grading sandbox: each test is one payload, run as a real submission
in a real worker (or, for the parent's own cost, against the checker the parent runs), and
passes only when the payload is stopped.

Found to work:

- `type(typing.List[int])` is typing's `_GenericAlias` class (its metaclass is `type`, so the
  `type` stand-in hands it out; so are `types.GenericAlias` and typing's Union, Literal and
  Callable aliases), and an alias built from it forwards every attribute read to its origin,
  which may be any object: the names refused on numpy objects only (`ctypes`,
  `base`, `dumps`...) are checked against the alias's type, not the array's. The array's
  `ctypes.shape` is a ctypes array, and `type()` of it is a ctypes class whose
  `from_address` reads and writes raw memory;
- a checker's reason on a hidden test quotes the hidden expected value (allclose: the first
  mismatching element and the expected shape; fusion: the number of groups of the
  reference's answer), and a hidden test's reason is shown to the member;
- `np.ndarray(shape, dtype)` without a buffer is `np.empty`: it hands a solution
  uninitialised memory, which shows what the worker freed before (`empty` is left out of
  the numpy namespace for that very reason);
- the fusion checker collects one fault per empty group before it looks at the first, so
  a result of many empty groups costs the parent memory in proportion to their number.

`test_still_refused` keeps the payloads of the round that were stopped already.
"""

from __future__ import annotations

import json
import tracemalloc
from typing import Any

import pytest

from bot.grades import Grade, Verdict
from bot.grading.checkers import Outcome, _shape, fusion
from bot.grading.generators import ELEMENTWISE
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import Case, Problem
from tests.grading.conftest import PATIENT, reference

pytestmark = pytest.mark.asyncio(loop_scope="module")

REFUSED = {Verdict.COMPILE_ERROR, Verdict.RUNTIME_ERROR}


@pytest.fixture(scope="module")
def patient(sandbox: Sandbox, problems: dict[str, Problem]) -> Grader:
    """Payloads must be refused, never timed out: 20 s of CPU, far more than any needs."""
    return Grader(sandbox, problems, PATIENT)


def _flat(value: Any) -> list[Any]:
    if type(value) is not list:
        return [value]
    return [x for v in value for x in _flat(v)]


def _hidden(problem: Problem, grade: Grade) -> list[tuple[Case, Any]]:
    """The hidden cases of `problem` with their results in `grade`."""
    cases = {c.number: c for c in problem.cases}
    pairs = [(cases[t.number], t) for t in grade.tests if not t.sample]
    assert pairs, grade
    return pairs


def _wanted(result: Any) -> str | None:
    """The `want` value a result's reason carries, if any."""
    reason = result.reason
    return None if reason is None else dict(reason.values).get("want")


# --- hidden expected values through the checker's reason ----------------------------------

# Every element wrong: the first mismatch is element 0, and its expected value was quoted.
SOFTMAX_WRONG_VALUES = """
def softmax(logits):
    return [[-1.0] * len(r) if isinstance(r, list) else -1.0 for r in logits]
"""

# A shape no test has: the expected shape was quoted.
SOFTMAX_WRONG_SHAPE = """
def softmax(logits):
    return [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0]
"""

# Every elementwise node its own group: legal, never minimal where fusion is possible, and
# the reference's number of groups was quoted.
FUSION_SINGLETONS = f"""
ELEMENTWISE = {ELEMENTWISE!r}

def fuse(graph):
    return [[n['name']] for n in graph['nodes'] if n['op'] in ELEMENTWISE]
"""


async def test_allclose_never_quotes_a_hidden_expected_element(
    patient: Grader, problems: dict[str, Problem]
) -> None:
    problem = problems["stable-softmax"]
    grade = await patient.grade(problem, SOFTMAX_WRONG_VALUES)
    assert grade.verdict is Verdict.WRONG_ANSWER, grade
    for case, result in _hidden(problem, grade):
        assert _wanted(result) is None, (case.number, result.reason)
        quoted = [f"expected {x!r}" for x in _flat(case.expected)]
        assert not any(q in (result.message or "") for q in quoted), result.message


async def test_allclose_never_quotes_a_hidden_expected_shape(
    patient: Grader, problems: dict[str, Problem]
) -> None:
    problem = problems["stable-softmax"]
    grade = await patient.grade(problem, SOFTMAX_WRONG_SHAPE)
    assert grade.verdict is Verdict.WRONG_ANSWER, grade
    for case, result in _hidden(problem, grade):
        assert _wanted(result) is None, (case.number, result.reason)
        shape = f"expected shape {_shape(case.expected)}"
        assert shape not in (result.message or ""), result.message


async def test_fusion_never_quotes_the_size_of_a_hidden_answer(
    patient: Grader, problems: dict[str, Problem]
) -> None:
    problem = problems["graph-fusion"]
    grade = await patient.grade(problem, FUSION_SINGLETONS)
    assert grade.verdict is Verdict.WRONG_ANSWER, grade
    for case, result in _hidden(problem, grade):
        assert _wanted(result) is None, (case.number, result.reason)
        assert f"where {len(case.expected)} suffice" not in (result.message or ""), result.message


# --- a typing alias as a forwarding proxy around a numpy array -----------------------------

ALIAS_TO_RAW_MEMORY = """
import numpy as np, typing
try:
    Alias = type(typing.List[int])
    proxy = Alias(np.arange(2), (int,), name='x')
    Cell = type(proxy.ctypes.shape)
    word = Cell.from_address(id(7) + 8)  # the type pointer of the int 7
    print('raw memory:', word[0] == id(int))
except Exception:
    print('refused')
"""

# Every alias kind whose class `type()` hands out forwards attribute reads to its origin.
ALIASES = {
    "types.GenericAlias": "type(list[int])(target, ())",
    "typing._GenericAlias": "type(typing.List[int])(target, (int,), name='x')",
    "typing._UnionGenericAlias": "type(typing.Union[int, str])(target, (int,), name='x')",
    "typing._LiteralGenericAlias": "type(typing.Literal[1])(target, (1,), name='x')",
    "typing._CallableGenericAlias": "type(typing.Callable[[int], int])(target, (int,), name='x')",
}

ALIAS_TO_ARRAY_NAMES = """
import numpy as np, typing
target = np.arange(8)[2:]
for name in ('base', 'dumps', 'ctypes', 'tofile', 'getfield', 'setfield'):
    try:
        getattr(ALIAS, name)
        print('reached', name)
    except Exception as exc:
        print('refused', name, type(exc))
"""


async def test_a_typing_alias_does_not_reach_raw_memory(patient: Grader) -> None:
    grade = await patient.run(ALIAS_TO_RAW_MEMORY)
    assert grade.verdict in REFUSED | {Verdict.ACCEPTED}, grade
    assert "raw memory" not in grade.output, grade.output


@pytest.mark.parametrize("alias", list(ALIASES.values()), ids=list(ALIASES))
async def test_an_alias_does_not_forward_names_refused_on_arrays(
    patient: Grader, alias: str
) -> None:
    grade = await patient.run(ALIAS_TO_ARRAY_NAMES.replace("ALIAS", alias))
    assert grade.verdict in REFUSED | {Verdict.ACCEPTED}, grade
    assert "reached" not in grade.output, grade.output


# --- uninitialised memory --------------------------------------------------------------------

# A buffer of 0xAB bytes is freed, then an array of the same size is made without a buffer:
# numpy's allocation cache hands the freed bytes straight back.
STALE_MEMORY = """
import numpy as np
a = np.full(512, 171, np.uint8)
del a
try:
    b = np.ndarray((512,), np.uint8)
    print('stale bytes:', int((b == 171).sum()))
except Exception:
    print('refused')
"""


async def test_the_ndarray_constructor_gives_no_uninitialised_memory(patient: Grader) -> None:
    grade = await patient.run(STALE_MEMORY)
    assert grade.verdict in REFUSED | {Verdict.ACCEPTED}, grade
    assert "stale bytes: 0" in grade.output or "refused" in grade.output, grade.output


# --- the parent's cost in the fusion checker -------------------------------------------------


async def test_the_fusion_checker_costs_no_memory_per_empty_group(
    problems: dict[str, Problem],
) -> None:
    """A result of the fusion problem: every elementwise node as its own group, then 300,000
    empty groups (1.2 MB of report, well within a worker's limits). The first fault is all the
    checker reports; it may not collect one per group on the way there."""
    problem = problems["graph-fusion"]
    case = max(problem.cases, key=lambda c: len(c.args()[0]["nodes"]))
    graph = case.args()[0]
    singletons = [[n["name"]] for n in graph["nodes"] if n["op"] in ELEMENTWISE]

    def peak(extra: int) -> int:
        groups = json.loads(json.dumps(singletons + [[]] * extra))  # as the judge decodes it
        tracemalloc.start()
        try:
            reason = fusion(case.args(), case.expected, Outcome(groups, None))
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            assert reason is not None

    baseline = peak(0)
    assert peak(300_000) < baseline + 1_000_000  # today: about 18 MB more


# --- payloads of this round that were refused already ---------------------------------------

STILL_REFUSED: list[tuple[str, str]] = [
    (
        "object fields overlapping an integer field",
        "import numpy as np\n"
        "np.dtype({'names': ['a', 'b'], 'formats': ['O', 'i8'], 'offsets': [0, 0]})",
    ),
    (
        "structured object array viewed as integers",
        "import numpy as np\nprint(np.zeros(2, dtype=[('a', 'O')]).view(np.int64))",
    ),
    (
        "object array cast to a structured dtype with an integer over the pointer",
        "import numpy as np\n"
        "a = np.array([(1,)], dtype=[('a', 'O')])\n"
        "print(a.astype([('a', 'i8')]).view(np.uint8))\n"
        "print(np.array([object()], dtype=object).view(np.int64))",
    ),
    (
        "writeable flag over an immutable bytes buffer",
        "import numpy as np\n"
        "a = np.ndarray((3,), np.uint8, buffer=b'abc')\na.setflags(write=True)\na[0] = 0",
    ),
    (
        "str.format on a numpy string",
        "import numpy as np\nprint(np.str_('{0.__class__}').format(1))",
    ),
    ("numpy string ufuncs", "import numpy as np\nprint(np.strings.mod('%s', [1]))"),
    ("np.char", "import numpy as np\nprint(np.char.mod('%s', [1]))"),
    (
        "format through a typing alias made by copy_with",
        "import typing\nprint(typing.List.copy_with((str,)).format)",
    ),
    (
        "getattr through functools.partial",
        "import functools\nprint(functools.partial(getattr, 1, '__class__')())",
    ),
    (
        "getattr as a sort key",
        "import functools\nprint(sorted(['__class__'], key=functools.partial(getattr, 1)))",
    ),
    (
        "getattr through itertools.starmap",
        "import itertools\nprint(list(itertools.starmap(getattr, [(1, '__class__')])))",
    ),
    (
        "gi_yieldfrom to a library generator",
        "import heapq\ndef g():\n    yield from heapq.merge([1], [2])\n"
        "x = g()\nnext(x)\nprint(getattr(x, 'gi_yieldfrom'))",
    ),
    ("three-argument call of a metaclass's type", "import typing\ntype(typing.Any)('X', (), {})"),
    (
        "a dtype's fields written",
        "import numpy as np\nf = np.dtype([('a', 'i8')]).fields\nf['a'] = (np.dtype('O'), 0)",
    ),
    (
        "an attribute read through a typing alias's origin",
        "import typing\nprint(getattr(typing.List, '__dict__'))",
    ),
    (
        "the dict under a functools.cache wrapper",
        "import functools\nprint(getattr(functools.cache(len), '__wrapped__'))",
    ),
    (
        "the exception's traceback through with_traceback",
        "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n"
        "    print(getattr(e.with_traceback(None), '__traceback__'))",
    ),
]


@pytest.mark.parametrize("code", [c for _, c in STILL_REFUSED], ids=[n for n, _ in STILL_REFUSED])
async def test_still_refused(patient: Grader, problems: dict[str, Problem], code: str) -> None:
    grade = await patient.run(code)
    assert grade.verdict in REFUSED, grade
    for leak in ("<module", "<frame", "<code", "<traceback", "__builtins__", "mappingproxy"):
        assert leak not in grade.output, grade.output
    after = await patient.grade(problems["rotate-matrix"], reference("rotate-matrix"))
    assert after.verdict is Verdict.ACCEPTED, after
