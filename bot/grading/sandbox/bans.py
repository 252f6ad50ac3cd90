"""What a problem's ban covers: the construct it names, and everything that computes the same.

A problem bans constructs by the names in its `banned` list (judge.yaml): `**`, a builtin
such as `pow`, or `module.name` such as `math.pow`. Refusing only those names on the syntax
tree let `getattr(math, "p" + "ow")` and `np.power` through, so a ban is enforced twice:

- on the syntax tree (rules.py), for the first use in the source, with its line: every name
  of the ban's family counts, so `np.power(x, n)` is found where it is written;
- at run time (policy.py): the names of the family are absent from what the solution can
  reach for that problem, so a name built at run time finds nothing. The `pow` builtin is
  not in its builtins, `math.pow` not in its `math`, `power` not in its `numpy`.

A family lists the library names that compute the banned thing itself, not every algorithm
that could: `math.exp(n * math.log(x))` is a way to compute a power, and is allowed.
"""

from __future__ import annotations

from collections.abc import Iterable

# x to the power n, by one call: the operator, the builtin, and the library functions that
# are the same computation (`logspace(n, n, 1, base=x)` is `x ** n`; `matrix_power` is
# exponentiation by squaring, the algorithm a fast-power problem asks for).
POWER = ("**", "pow", "math.pow", "numpy.power", "numpy.float_power", "numpy.logspace",
         "numpy.linalg.matrix_power")  # fmt: skip

FAMILIES: tuple[tuple[str, ...], ...] = (POWER,)


def expand(banned: Iterable[str]) -> frozenset[str]:
    """`banned` and every name of the families its names belong to."""
    rules = set(banned)
    for family in FAMILIES:
        if rules & set(family):
            rules.update(family)
    return frozenset(rules)


def builtins_of(rules: Iterable[str]) -> frozenset[str]:
    """The builtin names among `rules` (`pow`), to drop from a solution's builtins."""
    return frozenset(r for r in rules if r.isidentifier())


def attributes_of(rules: Iterable[str], module: str) -> frozenset[str]:
    """The names `rules` bans from `module` ("numpy" gives `power`, not linalg's names)."""
    prefix = module + "."
    return frozenset(r[len(prefix):] for r in rules
                     if r.startswith(prefix) and "." not in r[len(prefix):])  # fmt: skip
