"""`python -m bench.numpy_gate`: what the numpy gate costs a solution, beside numpy called bare.

Each figure is the same work done twice in this run: once through the gate (arguments
vetted, the result checked, an array's method read through the guard) and once calling
numpy directly, as solutions did before the gate; and what every other attribute read pays
for the gate's question "is this numpy's?", beside a bare attribute read. Figures are per
call, best of five.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable

import numpy as np

from bot.grading.sandbox import policy
from bot.grading.sandbox.guards import guarded_getattr


def best(func: Callable[[], object], number: int) -> float:
    """Seconds per call of `func`, the best of five runs of `number` calls."""
    return min(timeit.repeat(func, number=number, repeat=5)) / number


class Own:
    """A solution's object: its attribute reads pay the gate's one lookup of its class."""

    def __init__(self) -> None:
        self.x = 1


def rows() -> list[tuple[str, Callable[[], object], Callable[[], object], int]]:
    gated = policy._import("numpy")
    small, other = np.arange(8.0), np.ones(8)
    own = Own()
    matrix = [[float(i + j) for j in range(1000)] for i in range(1000)]
    return [
        ("ufunc on 8 floats", lambda: gated.add(small, other), lambda: np.add(small, other),
         20_000),
        ("a.sum() read and called", lambda: guarded_getattr(small, "sum")(),
         lambda: small.sum(), 20_000),
        ("np.asarray of 1000 x 1000 floats", lambda: gated.asarray(matrix),
         lambda: np.asarray(matrix), 5),
        ("a solution object's attribute (not numpy's)", lambda: guarded_getattr(own, "x"),
         lambda: own.x, 100_000),
        ("np.zeros((64, 64), dtype=np.float32)",
         lambda: gated.zeros((64, 64), dtype=gated.float32),
         lambda: np.zeros((64, 64), dtype=np.float32), 20_000),
    ]  # fmt: skip


def main() -> None:
    print("numpy gate: per call, gated vs bare (best of 5)")
    for name, through_gate, bare, number in rows():
        g, b = best(through_gate, number), best(bare, number)
        print(f"  {name:<44} gated {g * 1e6:10.2f} us   bare {b * 1e6:10.2f} us   "
              f"x{g / b:5.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
