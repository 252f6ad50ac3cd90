"""Values a solution returns, as plain data the parent can compare: built from exact builtin
types only, with the depth, node count and integer size capped.

numpy scalars become int/float/bool and numeric arrays nested lists, within the same budget;
non-finite floats stay floats, which JSON carries as NaN/Infinity as it does Python's own.
The parent uses the same conversion for a reference's results, so both sides agree.
"""

from __future__ import annotations

import sys
from typing import Any

MAX_DEPTH = 64
MAX_NODES = 1_000_000
MAX_INT_BITS = 4096


class Unserializable(Exception):
    """A value that is not plain data (or is too large or deep to hand back)."""


def plain(value: object) -> Any:
    """`value` as plain JSON-able data built from exact builtin types, or `Unserializable`."""
    budget = [MAX_NODES]
    return _plain(value, 0, budget)


LEAVES = (type(None), bool, float, str, int)


def _plain(value: object, depth: int, budget: list[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_DEPTH:
        raise Unserializable("the returned value is too large or too deeply nested")
    kind = type(value)
    if kind is int and value.bit_length() > MAX_INT_BITS:  # type: ignore[attr-defined]
        raise Unserializable("the returned integer is too large")
    if kind in LEAVES:
        return value
    if kind in (list, tuple):
        return _plain_list(value, depth, budget)  # type: ignore[arg-type]
    if kind is dict and all(type(k) is str for k in value):  # type: ignore[attr-defined]
        return {k: _plain(v, depth + 1, budget) for k, v in value.items()}  # type: ignore[attr-defined]
    if kind.__module__ == "numpy":
        return _plain_numpy(value, depth, budget)
    raise Unserializable(f"returned a {kind.__name__}, which is not plain data "
                         "(use int, float, str, bool, None, list or dict)")  # fmt: skip


NUMERIC_KINDS = "biuf"  # numpy dtype kinds that become bool, int or float


def _plain_numpy(value: Any, depth: int, budget: list[int]) -> Any:
    """A numpy scalar or array of booleans, integers or floats, as Python values.

    An array's element count is checked against the budget before `tolist` builds anything,
    so a huge array costs nothing to refuse. A scalar becomes a Python value by `bool`,
    `int` or `float` directly, never through `item()`, which returns a `longdouble` as
    itself. numpy is imported by then: the value is one of its."""
    np = sys.modules["numpy"]
    dt = getattr(value, "dtype", None)
    kind: str = dt.kind if isinstance(dt, np.dtype) else "?"
    if isinstance(value, np.ndarray) and kind in NUMERIC_KINDS:
        if value.size > budget[0] or depth + value.ndim > MAX_DEPTH:
            raise Unserializable("the returned value is too large or too deeply nested")
        if kind == "f" and value.dtype.itemsize > 8:  # longdouble: `tolist` keeps numpy's
            value = value.astype(np.float64)
        return _plain(value.tolist(), depth, budget)
    if isinstance(value, np.generic) and kind in NUMERIC_KINDS:
        return SCALAR[kind](value)
    raise Unserializable(f"returned a numpy {type(value).__name__} of dtype "
                         f"{getattr(value, 'dtype', '?')}: use numbers")  # fmt: skip


SCALAR = {"b": bool, "i": int, "u": int, "f": float}


def _plain_list(items: list[Any] | tuple[Any, ...], depth: int, budget: list[int]) -> list[Any]:
    # A flat row of scalars (a matrix row, a list of names) is checked in one pass, not one
    # call per element: results of 200 x 200 come back in microseconds instead of ~50 ms.
    if all(type(v) in LEAVES for v in items):
        budget[0] -= len(items)
        if budget[0] < 0:
            raise Unserializable("the returned value is too large or too deeply nested")
        if any(type(v) is int and v.bit_length() > MAX_INT_BITS for v in items):
            raise Unserializable("the returned integer is too large")
        return list(items)
    return [_plain(v, depth + 1, budget) for v in items]
