"""numpy without raw memory: each escape an attack round found, as a real submission.

Every payload prints `ESCAPE` when the escape works (each one did before the numpy gate:
numpy_gate.py), so a payload that is merely refused later than intended still fails here.
A payload that tries several spellings catches each refusal and prints `END` at the end,
so a worker killed midway fails too.
"""

from __future__ import annotations

import numpy as np
import pytest

from bot.grades import Verdict
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import Problem
from bot.grading.sandbox.plain import plain
from tests.grading.conftest import PATIENT, reference

in_sandbox = pytest.mark.asyncio(loop_scope="module")

REFUSED = {Verdict.COMPILE_ERROR, Verdict.RUNTIME_ERROR}
NP = "import numpy as np\n"

# (name, code): each must be refused outright.
PAYLOADS: list[tuple[str, str]] = [
    # type() of an allowed module proxy was the real types.SimpleNamespace
    ("type() of a module proxy", "import math\nNS = type(math)\nNS(x=1)\nprint('ESCAPE')"),
    (
        "a namespace with __array_interface__ over an address",
        NP + "import math\ns = b'secret-bytes-here'\n"
        "d = {'data': (id(s), False), 'shape': (64,), 'typestr': '|u1', 'version': 3}\n"
        "a = np.asarray(type(math)(**{'__array_interface__': d}))\n"
        "print('ESCAPE', bytes(a.tolist()).find(b'secret') >= 0)",
    ),
    ("keyword named with underscores", "def f(**kw):\n    return kw\nprint('ESCAPE', f(__x=1))"),
    (
        "keyword by ** with underscores",
        "def f(**k):\n    return k\nprint('ESCAPE', f(**{'_x': 1}))",
    ),
    (
        "object dtype over a buffer of integers",
        NP + "x = [1]\nbuf = np.array([id(x)], dtype=np.int64)\n"
        "a = np.ndarray((1,), dtype='O', buffer=buf)\nprint('ESCAPE', a[0] is x)",
    ),
    (
        "ndarray strides wrapping around the bounds check",
        NP + "b = np.zeros(8, np.uint8)\n"
        "a = np.ndarray((5,), dtype=np.uint8, buffer=b, strides=(2**62,))\nprint('ESCAPE')",
    ),
    (
        "resize frees what a view points at",
        NP + "a = np.arange(100)\nv = a[10:]\na.resize(5, refcheck=False)\nprint('ESCAPE', v[0])",
    ),
    (
        "uint64 array over an object array's pointers",
        NP + "x = [1]\no = np.array([x, 2], dtype=object)\n"
        "print('ESCAPE', np.ndarray((2,), np.uint64, buffer=o)[0] == id(x))",
    ),
    ("view of a numeric array", NP + "print('ESCAPE', np.arange(3.0).view(np.uint8))"),
    ("type of arr.data is memoryview", NP + "M = type(np.arange(3).data)\nprint('ESCAPE', M)"),
    ("arr.data", NP + "print('ESCAPE', np.arange(3).data)"),
    ("ndarray.tofile off the class", NP + "print('ESCAPE', np.ndarray.tofile)"),
    ("ndarray.dump off the class", NP + "print('ESCAPE', np.ndarray.dump)"),
    ("ndarray.ctypes off the class", NP + "print('ESCAPE', np.ndarray.ctypes)"),
    ("ndarray.base off the class", NP + "print('ESCAPE', np.ndarray.base)"),
    ("getfield off the class", NP + "print('ESCAPE', getattr(np.ndarray, 'getfield'))"),
    ("setfield off type(arr)", NP + "print('ESCAPE', type(np.zeros(2)).setfield)"),
    ("view off type(arr)", NP + "a = np.zeros(2)\nprint('ESCAPE', type(a).view(a, np.uint8))"),
    ("np.ndarray(...) at all", NP + "print('ESCAPE', np.ndarray((2,)))"),
    ("type(arr)(...)", NP + "print('ESCAPE', type(np.zeros(2))((2,)))"),
    ("longdouble", NP + "print('ESCAPE', np.asarray(1.5, dtype='g'))"),
    ("flat iterator", NP + "print('ESCAPE', np.zeros(2).flat)"),
    ("flags object", NP + "print('ESCAPE', np.zeros(2).flags)"),
    ("a dtype's scalar class", NP + "print('ESCAPE', np.zeros(2).dtype.type)"),
    ("ufunc with an object signature", NP + "print('ESCAPE', np.add([1], [2], signature='OO->O'))"),
    ("ufunc method on objects", NP + "print('ESCAPE', np.add.reduce([[1]], dtype=object))"),
]

# Every spelling of a dtype that holds object references or raw bytes.
SPELLINGS = ["'O'", "object", "'object'", "np.dtype('O')", "'|O'", "[('a', 'O')]", "'O8'",
             "[('a', 'i8'), ('b', 'O')]", "'V8'", "np.dtype([('a', 'O')])"]  # fmt: skip
CONSTRUCTIONS = ["np.zeros(2, dtype=S)", "np.zeros(2, S)", "np.array([1, 2], S)",
                 "np.arange(2).astype(S)", "np.full(2, 0, S)", "np.ones_like([1], dtype=S)",
                 "np.asarray([1, 2], dtype=S)", "np.eye(2, dtype=S)",
                 "np.float64(1).astype(S)", "np.dtype(S)"]  # fmt: skip


KIND = """
def kind(r):
    if isinstance(r, np.dtype):
        return r.kind
    return getattr(getattr(r, 'dtype', None), 'kind', '-')
"""


def spelling_payload(spelling: str) -> str:
    """Each construction in turn; `ESCAPE` for a result of an object or void dtype (a plain
    Python value, as `np.float64(1).astype('O')` gives, holds no reference of numpy's)."""
    lines = [NP, KIND, f"try:\n    S = {spelling}\nexcept TypeError:\n    S = 'O'\n"]
    for construction in CONSTRUCTIONS:
        lines.append(f"try:\n    r = {construction}\n    if kind(r) in 'OV':\n"
                     f"        print('ESCAPE', {construction!r})\n"
                     "except (TypeError, ValueError, AttributeError):\n    pass\n")  # fmt: skip
    return "".join(lines) + "print('END')\n"


@pytest.fixture(scope="module")
def patient(sandbox: Sandbox, problems: dict[str, Problem]) -> Grader:
    """Refusals and walks that end well inside 20 s of CPU: never a time limit."""
    return Grader(sandbox, problems, PATIENT)


@in_sandbox
@pytest.mark.parametrize("code", [c for _, c in PAYLOADS], ids=[n for n, _ in PAYLOADS])
async def test_numpy_escape_is_refused(
    patient: Grader, problems: dict[str, Problem], code: str
) -> None:
    grade = await patient.run(code)
    assert grade.verdict in REFUSED, grade
    assert "ESCAPE" not in grade.output, grade.output
    after = await patient.grade(problems["rotate-matrix"], reference("rotate-matrix"))
    assert after.verdict is Verdict.ACCEPTED, after


@in_sandbox
@pytest.mark.parametrize("spelling", SPELLINGS)
async def test_no_spelling_of_an_object_or_void_dtype_builds_anything(
    patient: Grader, spelling: str
) -> None:
    grade = await patient.run(spelling_payload(spelling))
    assert grade.verdict is Verdict.ACCEPTED, grade
    assert grade.output.endswith("END\n") and "ESCAPE" not in grade.output, grade.output


LONGDOUBLE = """
import numpy as np

def my_pow(x, n):
    return np.asarray(x, dtype='g')[()]
"""


@in_sandbox
async def test_a_longdouble_result_gets_a_verdict(
    patient: Grader, problems: dict[str, Problem]
) -> None:
    grade = await patient.grade(problems["fast-power"], LONGDOUBLE)
    assert grade.verdict is Verdict.RUNTIME_ERROR, grade
    assert "float128 is not available" in (grade.message or ""), grade.message


@pytest.mark.parametrize(
    ("value", "expected"),
    [(np.longdouble(1.5), 1.5), (np.array([0.25], dtype=np.longdouble), [0.25]),
     (np.float16(0.5), 0.5), (np.uint64(2**64 - 1), 2**64 - 1), (np.bool_(False), False)],
    ids=["longdouble", "longdouble-array", "float16", "uint64", "bool"],
)  # fmt: skip
def test_every_numpy_scalar_type_converts_without_recursion(
    value: object, expected: object
) -> None:
    result = plain(value)
    assert result == expected and type(result) is type(expected)


NUMPY_USE = """
import numpy as np

x = np.array([[3.0, 1.0], [2.0, 4.0]])
u = np.linalg.svd(x)
print(x.dtype == np.float64, isinstance(x, np.ndarray), type(x) is np.ndarray,
      np.zeros(2, dtype=np.int64).dtype, np.zeros(2, int).dtype, np.dtype('float32'),
      x.astype(np.float32).dtype, np.maximum.accumulate([1, 3, 2]).tolist(),
      np.add.reduce(x).tolist(), round(float(u.S[0]), 3), x.T.shape, x[0, 1], x[x > 2.5].tolist(),
      np.float64(2.5).is_integer(), np.unique([3, 1, 3]).tolist(), np.diagonal(x, offset=1))
y = x.copy()
y[0, 0] = 7
y[:, 1] += 1
print(y.tolist(), np.arange(4).reshape(2, 2).sum(axis=0).tolist(), np.array(range(3)).tolist())
"""


@in_sandbox
async def test_ordinary_numpy_still_works(grader: Grader) -> None:
    grade = await grader.run(NUMPY_USE)
    assert grade.verdict is Verdict.ACCEPTED, grade
    assert grade.output == (
        "True True True int64 int64 float32 float32 [1, 3, 3] [5.0, 5.0] 5.117 (2, 2) 1.0 "
        "[3.0, 4.0] False [1, 3] [1.]\n"
        "[[7.0, 2.0], [2.0, 5.0]] [2, 4] [0, 1, 2]\n"
    )
