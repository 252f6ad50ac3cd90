"""What each importable module exposes to a solution: named, reviewed entries, nothing else.

A module is never handed out; `import math` gives a namespace holding exactly the names
listed here, taken from the real module in the zygote. A name that is not listed does not
exist for a solution, so a new release of a module cannot add anything.

Left out on purpose, as classes of technique rather than instances:

- anything that evaluates strings as code or annotations with real `eval` (typing's
  `get_type_hints`, `ForwardRef`, `NamedTuple`, `TypedDict`; `singledispatch.register`
  reads annotations through `get_type_hints`);
- anything that reads or writes attributes by caller-chosen names (`update_wrapper`,
  `wraps`: with `assigned=("__globals__",)` they copy or merge any object's globals);
- objects that delegate attribute reads to another object (`UserString`, `UserDict`,
  `UserList`, `GenericAlias`, `Annotated`), which made `str.format` reachable by proxy;
- anything whose metaclass is not `type` or that builds classes with another (`ABCMeta`,
  `Protocol`, `Generic`, `Type`, `ChainMap`, the `collections.abc` classes);
- anything taking a `module=` parameter that decides which globals a class claims
  (`namedtuple` is wrapped: no `module`, no `rename`).
"""

from __future__ import annotations

import bisect
import collections
import functools
import heapq
import itertools
import math
import types
import typing
from collections.abc import Iterable
from typing import Any

from bot.grading.sandbox.classes import SOLUTION_MODULE, is_solution_class

# All C functions of numbers, and constants.
MATH = (
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "comb",
    "copysign", "cos", "cosh", "degrees", "dist", "e", "erf", "erfc", "exp", "exp2", "expm1",
    "fabs", "factorial", "floor", "fmod", "frexp", "fsum", "gamma", "gcd", "hypot", "inf",
    "isclose", "isfinite", "isinf", "isnan", "isqrt", "lcm", "ldexp", "lgamma", "log",
    "log10", "log1p", "log2", "modf", "nan", "nextafter", "perm", "pi", "pow", "prod",
    "radians", "remainder", "sin", "sinh", "sqrt", "tan", "tanh", "tau", "trunc", "ulp",
)  # fmt: skip

# All C iterator types.
ITERTOOLS = (
    "accumulate", "chain", "combinations", "combinations_with_replacement", "compress",
    "count", "cycle", "dropwhile", "filterfalse", "groupby", "islice", "pairwise",
    "permutations", "product", "repeat", "starmap", "takewhile", "tee", "zip_longest",
)  # fmt: skip

COLLECTIONS = (
    "Counter",  # a dict subclass in Python, metaclass type; reads only its own data
    "OrderedDict", "defaultdict", "deque",
    # "namedtuple" is the wrapper below
)  # fmt: skip

FUNCTOOLS = (
    "reduce", "cmp_to_key", "partial",
    "lru_cache",  # copies a fixed set of attributes from the function it wraps, onto itself
    "cache",  # lru_cache(maxsize=None)
    # "total_ordering" is the wrapper below
)  # fmt: skip

HEAPQ = (
    "heapify", "heappop", "heappush", "heappushpop", "heapreplace", "nlargest", "nsmallest",
    "merge",  # a Python generator: its frame and code are refused by the value check
)  # fmt: skip

BISECT = ("bisect", "bisect_left", "bisect_right", "insort", "insort_left", "insort_right")

TYPING = (
    # Aliases for annotations. Attribute reads forward to their origin (builtins or
    # collections.abc), which the name check covers; subclassing them is refused (classes.py).
    "Any", "AbstractSet", "Callable", "Collection", "Container", "Counter", "DefaultDict",
    "Deque", "Dict", "Final", "FrozenSet", "Generator", "Hashable", "Iterable", "Iterator",
    "List", "Literal", "Mapping", "MutableMapping", "MutableSequence", "MutableSet",
    "NoReturn", "Optional", "OrderedDict", "Reversible", "Sequence", "Set", "Sized", "Tuple",
    "Union", "TYPE_CHECKING",
    "TypeVar",  # string bounds become ForwardRefs reachable only by underscore names
)  # fmt: skip


def namedtuple(typename: str, field_names: str | Iterable[str], *,
               defaults: Iterable[Any] | None = None) -> type:  # fmt: skip
    """`collections.namedtuple` without `module=` or `rename=`: the class is the solution's."""
    return collections.namedtuple(typename, field_names, defaults=defaults,
                                  module=SOLUTION_MODULE)  # fmt: skip


def total_ordering(cls: type) -> type:
    """`functools.total_ordering`, for the solution's own classes only (it sets attributes)."""
    if not is_solution_class(cls):
        raise TypeError("total_ordering applies to your own classes only")
    return functools.total_ordering(cls)


def _pick(module: types.ModuleType, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(module, name) for name in names}


def exposed() -> dict[str, dict[str, Any]]:
    """Module name -> the names and values a solution gets from it."""
    return {
        "math": _pick(math, MATH),
        "itertools": _pick(itertools, ITERTOOLS),
        "collections": _pick(collections, COLLECTIONS) | {"namedtuple": namedtuple},
        "functools": _pick(functools, FUNCTOOLS) | {"total_ordering": total_ordering},
        "heapq": _pick(heapq, HEAPQ),
        "bisect": _pick(bisect, BISECT),
        "typing": _pick(typing, TYPING),
    }
