"""Every numpy callable a solution can reach, called with hostile arguments.

Two walks over the same callables (the numpy proxy's names, `np.linalg`'s, and the methods
of an array and of a numpy scalar):

- in the real sandbox, as restricted solutions: each call is made with values a solution can
  build (its subclasses of list, int and float, bytes and bytearray, a module proxy, huge
  shapes and strides, every spelling of an object or void dtype) in several call shapes,
  each in try/except, and each result is checked: no class `type()` refuses, no dtype
  outside the short list (an object array is an integer turned into a reference). A call
  that escapes prints `ESCAPE`; a killed worker never prints `END`. The callables are
  split into batches, a few thousand calls per worker;
- in this process, with objects a solution cannot build (RestrictedPython refuses their
  names) that carry numpy's protocols: the gate must refuse them before numpy reads any of
  them, which each object counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import pytest

from bot.grades import Verdict
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import Problem
from bot.grading.sandbox import numpy_gate, policy
from tests.grading.conftest import PATIENT

in_sandbox = pytest.mark.asyncio(loop_scope="module")


def numpy_names() -> list[str]:
    proxy = policy._import("numpy")
    return sorted(n for n in vars(proxy) if n != "linalg")


TARGETS = ([f"np.{n}" for n in numpy_names()]
           + [f"np.linalg.{n}" for n in sorted(vars(policy._import("numpy").linalg))]
           + [f"fresh().{n}" for n in sorted(numpy_gate.ARRAY)]
           + [f"np.float64(1.5).{n}" for n in sorted(numpy_gate.SCALAR)])  # fmt: skip
BATCHES = 8

PRELUDE = """
import math
import numpy as np

class L(list):
    pass

class I(int):
    pass

class F(float):
    pass

class Eq:
    def __eq__(self, other):
        return True

def fresh():
    return np.arange(4.0).reshape(2, 2)

A = fresh()
HOSTILE = [L([1, 2]), I(3), F(1.5), Eq(), b'abcdefgh', bytes(8), 2**63, -2**63, 2**64,
           10**30, -1, (2**62, 2**62), (2**31,) * 4, [2**63], 'O', object, 'object', '|O',
           [('a', 'O')], 'O8', 'V8', 'g', 'M8', 'S4', np.array(True), np.float64(2), math,
           type, print, [[1, 2], [3]], {'a': 1}, {1, 2}, slice(1, 2), 1e308, (0, 2**62),
           L([L([1])]), (I(2), I(2))]
for build in (lambda: type(math)(x=1), lambda: type(A.data), lambda: type(A)((2,))):
    try:
        HOSTILE.append(build())
        print('ESCAPE a hostile value was built', len(HOSTILE))
    except Exception:
        pass

def kind(r):
    if isinstance(r, np.dtype):
        return r.kind
    return getattr(getattr(r, 'dtype', None), 'kind', '-')

def check(r, where, depth=0):
    try:
        type(r)
    except TypeError:
        if isinstance(r, tuple) and depth < 2:  # numpy's named results (SVDResult ...)
            for v in r:
                check(v, where, depth + 1)
        elif not callable(r):
            print('ESCAPE class', where)
        return
    if isinstance(r, (list, tuple)) and depth < 2:
        for v in r[:4]:
            check(v, where, depth + 1)
    if kind(r) not in 'biufcU-':
        print('ESCAPE dtype', kind(r), where)

SHAPES = [
    lambda f, h: f(h),
    lambda f, h: f(A, h),
    lambda f, h: f(A, A, h),
    lambda f, h: f(A, dtype=h),
    lambda f, h: f(A, axis=h),
    lambda f, h: f(A, out=h),
    lambda f, h: f(h, strides=(2**62,)),
    lambda f, h: f(h, buffer=b'abcdefgh'),
    lambda f, h: f(A, like=h),
    lambda f, h: f(A, offset=h),
    lambda f, h: f(A, signature=h),
]
calls = 0
LOOPS = ('np.diff',)  # n passes in Python: a matter for the CPU limit, not an escape

def probe(name, get):
    global calls
    for i, shape in enumerate(SHAPES):
        for j, h in enumerate(HOSTILE):
            calls += 1
            if name in LOOPS and isinstance(h, int) and abs(h) > 100:
                continue
            try:
                r = shape(get(), h)
            except ImportError:
                print('MISSING', name)
                return
            except Exception:
                continue
            check(r, f'{name} shape {i} hostile {j}')
"""


def batch_source(targets: list[str]) -> str:
    probes = "".join(f"probe({t!r}, lambda: {t})\n" for t in targets)
    operators = (
        "for j, h in enumerate(HOSTILE):\n"
        "    for op in (lambda: A + h, lambda: h * A, lambda: A[h], lambda: A == h):\n"
        "        try:\n            check(op(), f'operator hostile {j}')\n"
        "        except Exception:\n            pass\n"
        "    try:\n        B = fresh()\n        B[0] = h\n        check(B, f'store {j}')\n"
        "    except Exception:\n        pass\n"
    )
    return PRELUDE + probes + operators + "print('END', calls)\n"


@pytest.fixture(scope="module")
def patient(sandbox: Sandbox, problems: dict[str, Problem]) -> Grader:
    """Refusals and walks that end well inside 20 s of CPU: never a time limit."""
    return Grader(sandbox, problems, PATIENT)


@in_sandbox
@pytest.mark.parametrize("batch", range(BATCHES))
async def test_no_numpy_callable_escapes_with_hostile_arguments(
    patient: Grader, batch: int
) -> None:
    targets = TARGETS[batch::BATCHES]
    grade = await patient.run(batch_source(targets))
    assert grade.verdict is Verdict.ACCEPTED, grade  # the worker lived to report
    assert grade.output.startswith("END "), grade.output  # nothing escaped, nothing missing
    assert int(grade.output.split()[1]) == len(targets) * 11 * 37  # every call was made


class Protocols:
    """An object a solution cannot build: numpy's array protocols, each counting its use."""

    used: ClassVar[list[str]] = []

    def _use(self, name: str) -> Any:
        Protocols.used.append(name)
        raise AssertionError(f"numpy read {name} of a solution's object")

    @property
    def __array_interface__(self) -> Any:
        return self._use("__array_interface__")

    @property
    def __array_struct__(self) -> Any:
        return self._use("__array_struct__")

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        return self._use("__array__")

    def __array_function__(self, *args: Any) -> Any:
        return self._use("__array_function__")

    def __array_ufunc__(self, *args: Any, **kwargs: Any) -> Any:
        return self._use("__array_ufunc__")

    def __buffer__(self, flags: int) -> Any:
        return self._use("__buffer__")

    def __index__(self) -> int:
        return int(self._use("__index__"))

    def __float__(self) -> float:
        return float(self._use("__float__"))

    def __len__(self) -> int:
        return int(self._use("__len__"))


class ListWithProtocols(list[int], Protocols):
    pass


def gated_callables() -> list[tuple[str, Callable[..., Any]]]:
    proxy = policy._import("numpy")
    found = [(n, v) for n, v in vars(proxy).items() if callable(v) and n != "ndarray"]
    found += [(f"linalg.{n}", v) for n, v in vars(proxy.linalg).items() if callable(v)]
    array = proxy.arange(4.0).reshape(2, 2)
    found += [(f"array.{n}", numpy_gate.attribute(array, n)) for n in sorted(numpy_gate.ARRAY)]
    return [(n, f) for n, f in found if isinstance(f, numpy_gate.Gated | numpy_gate.NumpyClass)]


@pytest.mark.parametrize("hostile", [Protocols(), ListWithProtocols([1, 2])],
                         ids=["protocols", "list-subclass"])  # fmt: skip
def test_the_gate_refuses_protocol_objects_before_numpy_reads_them(hostile: object) -> None:
    Protocols.used.clear()
    array = policy._import("numpy").arange(4.0)
    refused = 0
    for _name, f in gated_callables():
        for args, kwargs in [
            ((hostile,), {}),
            ((array, hostile), {}),
            ((array,), {"x": hostile}),
            ((array,), {"dtype": hostile}),
            ((array,), {"out": hostile}),
        ]:
            with pytest.raises(TypeError):
                f(*args, **kwargs)
            refused += 1
    assert Protocols.used == []
    assert refused >= 5 * 200


def test_the_protocol_object_would_be_read_by_numpy_itself() -> None:
    import numpy as np

    Protocols.used.clear()
    with pytest.raises(AssertionError):
        np.add(np.arange(2), Protocols())
    assert Protocols.used
