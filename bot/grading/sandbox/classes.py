"""Classes in a solution: which may be built, and which objects a solution may write to.

Every class a solution defines has the metaclass `type`, whatever path builds it:

- the `class` statement goes through `__build_class__`, ours: the bases are resolved once
  (`__mro_entries__` called here, so a base cannot answer differently later), and every class
  in every base's MRO must have the metaclass `type` and come from the builtins, from the
  solution itself, or from a short reviewed list. So `class M(typing.Type)`, Protocol,
  Generic, `collections.abc` and typing's aliases of them (their metaclass is ABCMeta, their
  `__init_subclass__` library code) are refused before any of their code runs;
- `type` itself is a stand-in (`TypeGate`): `type(x)` answers with a class a solution could
  name anyway: a builtin one (but `memoryview`), its own, or one the allowlists expose
  (`name_classes`); numpy's classes are answered with their stand-ins (numpy_gate.py), a
  metaclass with the `type` stand-in, and anything else is refused: a module proxy's class
  is `types.SimpleNamespace`, which builds objects with any attribute, `__array_interface__`
  included. The three-argument form is refused; `isinstance(x, type)` still works;
- RestrictedPython refuses the `metaclass=` keyword in the source and passes `__metaclass__`
  (a global a solution cannot rebind: underscore), and the hook checks it is `type` anyway.

Writes (`obj.x = v`, `obj[k] = v`) are allowed on lists, dicts and instances of the
solution's own classes. The library's containers (OrderedDict, defaultdict, Counter, deque,
bytearray, numpy arrays) take item writes (`od[k] = v`, `a[i, j] = x`, `del d[k]`) and no
attribute writes: `_write_` hands back an `ItemWriter` for them. Everything else goes through
RestrictedPython's full write guard.
"""

from __future__ import annotations

import builtins
import collections
import types
from collections.abc import Callable, Iterable
from typing import Any

import numpy
from RestrictedPython.Guards import full_write_guard

from bot.grading.sandbox import numpy_gate

SOLUTION_MODULE = "solution"  # the `__name__` of a solution: its classes' `__module__`
FROM = ("builtins", SOLUTION_MODULE)
# Library classes a solution may derive from: dict/deque relatives with metaclass `type`
# whose methods take nothing from the caller but the data they hold.
REVIEWED_BASES = frozenset({collections.Counter, collections.OrderedDict,
                            collections.defaultdict, collections.deque})  # fmt: skip


class _Gate(type):
    """The metaclass of the `type` stand-in: instance checks as `type`, calls narrowed."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) != 1 or kwargs:
            raise TypeError("type(name, bases, dict) is not allowed; use a class statement")
        kind = type(args[0])
        return TypeGate if issubclass(kind, type) else visible(kind)

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, type)

    def __subclasscheck__(cls, sub: Any) -> bool:
        return issubclass(sub, type)


class TypeGate(metaclass=_Gate):
    """`type` as a solution sees it: `type(x)`, `isinstance(c, type)`, never a metaclass."""


NAMED: set[type] = set()  # library classes the allowlists hand out (policy.py registers them)
HIDDEN_BUILTINS = frozenset({memoryview})  # `cast` reinterprets a buffer's bytes


def name_classes(classes: Iterable[object]) -> None:
    NAMED.update(c for c in classes if isinstance(c, type))


def visible(kind: type) -> type:
    """What `type(x)` answers for an `x` of class `kind`, or TypeError. An exception of a
    library's own class is answered with its nearest builtin one (`except Exception as e:
    print(type(e))` on a refusal of the sandbox's says TypeError): builtins are the
    solution's already, and a handler that looks at its exception's type still works."""
    if kind.__module__ == "builtins" and kind not in HIDDEN_BUILTINS:
        return kind
    if kind in NAMED or is_solution_class(kind):
        return kind
    if issubclass(kind, BaseException):
        return next(c for c in kind.__mro__ if c.__module__ == "builtins")
    if kind.__module__.partition(".")[0] == "numpy":
        return numpy_gate.stand_in(kind)
    raise TypeError(f"type() of a {kind.__module__}.{kind.__name__} object is not available")


def check_bases(bases: tuple[Any, ...]) -> None:
    """Raise TypeError unless every class behind `bases` may be a solution class's base."""
    for base in bases:
        if not isinstance(base, type):
            raise TypeError(f"a class can only derive from classes, not {type(base).__name__}")
        for cls in base.__mro__:
            _check_one(cls)


def _check_one(cls: type) -> None:
    if type(cls) is not type or issubclass(cls, type):
        raise TypeError(f"cannot derive from {cls.__name__}: only classes whose metaclass "
                        "is `type` may be bases")  # fmt: skip
    if cls.__module__ not in FROM and cls not in REVIEWED_BASES:
        raise TypeError(f"cannot derive from {cls.__module__}.{cls.__name__}: derive from "
                        "object, builtin types or your own classes")  # fmt: skip


def is_solution_class(cls: object) -> bool:
    return isinstance(cls, type) and type(cls) is type and cls.__module__ == SOLUTION_MODULE


# Containers whose items are data: writing one stores a value and can reach nothing else.
ITEM_WRITABLE = frozenset({
    collections.OrderedDict, collections.defaultdict, collections.Counter, collections.deque,
    bytearray, numpy.ndarray,
})  # fmt: skip


class ItemWriter:
    """What `_write_` returns for an `ITEM_WRITABLE` container: item assignment and deletion
    pass through; an attribute write is refused (`a.shape = ...` reinterprets an array)."""

    __slots__ = ("_target",)
    _target: Any

    def __init__(self, target: Any) -> None:
        object.__setattr__(self, "_target", target)

    def __setitem__(self, key: Any, value: Any) -> None:
        if type(self._target) is numpy.ndarray:  # numpy converts both: vetted as arguments
            key, value = numpy_gate.incoming(key), numpy_gate.incoming(value)
        self._target[key] = value

    def __delitem__(self, key: Any) -> None:
        del self._target[key]

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError(f"cannot set attributes of {type(self._target).__name__} objects")

    def __delattr__(self, name: str) -> None:
        raise TypeError(f"cannot delete attributes of {type(self._target).__name__} objects")


class WriteGuard:
    """`_write_` and `__build_class__` of one solution: it may write to its own instances."""

    def __init__(self) -> None:
        self.classes: set[type] = set()

    def __call__(self, obj: Any) -> Any:
        kind = type(obj)
        if kind is list or kind is dict or kind in self.classes:  # the hot path: m[i][j] = v
            return obj
        if kind in ITEM_WRITABLE:
            return ItemWriter(obj)
        if isinstance(obj, type) and obj in self.classes:
            return obj
        return full_write_guard(obj)

    def build_class(self, func: Callable[..., Any], name: str, *bases: Any, **kw: Any) -> Any:
        """The class statement: bases resolved and checked once, metaclass `type` only."""
        if kw.pop("metaclass", type) is not type:
            raise TypeError("a metaclass other than `type` is not allowed")
        resolved = types.resolve_bases(bases)
        check_bases(resolved)
        cls = builtins.__build_class__(func, name, *resolved, metaclass=type, **kw)
        if type(cls) is not type:  # unreachable after check_bases; kept as the invariant
            raise TypeError("a metaclass other than `type` is not allowed")
        self.classes.add(cls)
        return cls
