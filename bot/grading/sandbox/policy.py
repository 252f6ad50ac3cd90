"""The globals a solution runs with: RestrictedPython's guards, supplied by us.

RestrictedPython rewrites `a.b` into `_getattr_(a, "b")`, `a[i]` into `_getitem_(a, i)`,
`for x in y` into `_getiter_(y)`, `a.b = c` into `_write_(a).b = c`, `print(...)` into a
collector made by `_print_`, and tuple unpacking into the `_unpack_` helpers. What those names
do is ours to decide; this module decides it:

- attribute reads refuse underscore names, frame/traceback/generator internals and the
  format-string methods (`str.format`, `format_map`, `string.Formatter`), and never hand out a
  module (so `typing.sys` cannot reach `sys`);
- writes are allowed on dicts, lists and instances of classes the solution itself defined
  (`self.x = ...`), and refused on everything else;
- imports come only from a short allow-list, as proxies holding the module's public, non-module
  attributes, taken from modules the zygote imported before any solution ran;
- printing goes to a capped buffer the harness reads back.

None of this is a sandbox on its own; the worker process and its limits are.
"""

from __future__ import annotations

import builtins
import operator
import sys
import types
from collections.abc import Callable, Iterable
from typing import Any

from RestrictedPython.Guards import full_write_guard, safe_builtins, safer_getattr_raise

ALLOWED_MODULES = ("math", "itertools", "collections", "functools", "heapq", "bisect", "typing")

# What real solutions need, beyond RestrictedPython's safe_builtins (which has no containers).
EXTRA_BUILTINS = (
    "all", "any", "dict", "enumerate", "filter", "frozenset", "iter", "list", "map", "max",
    "min", "next", "object", "reversed", "set", "sorted", "sum", "tuple", "zip", "bytes",
    "property", "staticmethod", "classmethod", "NotImplemented",
)  # fmt: skip

INPLACE = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow,
    "<<=": operator.ilshift, ">>=": operator.irshift, "&=": operator.iand,
    "|=": operator.ior, "^=": operator.ixor, "@=": operator.imatmul,
}  # fmt: skip


class Output:
    """Everything a solution printed, capped at `cap` characters (the rest is counted, not kept)."""

    def __init__(self, cap: int) -> None:
        self.cap, self.parts, self.size, self.dropped = cap, list[str](), 0, 0

    def write(self, text: str) -> None:
        room = self.cap - self.size
        kept = text[: max(room, 0)]
        self.parts.append(kept)
        self.size += len(kept)
        self.dropped += len(text) - len(kept)

    def text(self) -> str:
        return "".join(self.parts)


class _Printer:
    """What `_print_` returns: RestrictedPython calls `_call_print` for every `print()`."""

    def __init__(self, output: Output) -> None:
        self._output = output

    def _call_print(self, *objects: object, sep: str | None = " ", end: str | None = "\n",
                    **_: object) -> None:  # fmt: skip
        # `file=` is ignored on purpose: output has one destination, the capped buffer.
        sep = " " if sep is None else str(sep)
        end = "\n" if end is None else str(end)
        self._output.write(sep.join(str(o) for o in objects) + end)

    def __call__(self) -> str:  # the `printed` name of RestrictedPython
        return self._output.text()


def _getattr(obj: object, name: str, *default: object) -> object:
    # The `_raise` variant: a missing attribute is an AttributeError, as in Python, not None.
    value = safer_getattr_raise(obj, name, *default)  # type: ignore[no-untyped-call]
    if isinstance(value, types.ModuleType):
        raise AttributeError(f'"{name}" is a module; import it instead (allowed: '
                             + ", ".join(ALLOWED_MODULES) + ")")  # fmt: skip
    return value


def module_proxy(module: types.ModuleType) -> types.SimpleNamespace:
    """A module's public, non-module attributes, without the module object itself."""
    public = {
        name: value
        for name, value in vars(module).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    return types.SimpleNamespace(**public)


PROXIES: dict[str, types.SimpleNamespace] = {}


def preload() -> None:
    """Import the allowed modules now (in the zygote), so a worker never opens a file."""
    for name in ALLOWED_MODULES:
        PROXIES[name] = module_proxy(__import__(name))


def _import(name: str, globals_: object = None, locals_: object = None,
            fromlist: Iterable[str] | None = (), level: int = 0) -> object:  # fmt: skip
    if level != 0 or name not in ALLOWED_MODULES:
        raise ImportError(f"import of '{name}' is not allowed; allowed: "
                          + ", ".join(ALLOWED_MODULES))  # fmt: skip
    if name not in PROXIES:
        preload()
    return PROXIES[name]


class _WriteGuard:
    """`_write_`: a solution may write to dicts, lists and its own classes' instances."""

    def __init__(self) -> None:
        self.classes: set[type] = set()

    def __call__(self, obj: Any) -> Any:
        kind = type(obj)
        if kind is list or kind is dict or kind in self.classes:  # the hot path: m[i][j] = v
            return obj
        if isinstance(obj, type) and obj in self.classes:
            return obj
        return full_write_guard(obj)

    def build_class(self, func: Callable[..., Any], name: str, *bases: Any, **kw: Any) -> Any:
        cls = builtins.__build_class__(func, name, *bases, **kw)
        self.classes.add(cls)
        return cls


def _unpack(it: Any, spec: object, _getiter_: Callable[[Any], Any]) -> Any:
    """The unpacking guard (`a, b = x`, `for i, j in pairs`), kept cheap on the hot path.

    RestrictedPython's own versions copy every value into a list through `_getiter_`, nested
    levels included; with our `_getiter_` (plain `iter`) that copy vetoes nothing and cost a
    quarter of a matrix rotation. Tuples and lists unpack as they are; anything else still
    goes through `_getiter_`, so a stricter iteration policy would apply to it."""
    return it if type(it) in (tuple, list) else _getiter_(it)


def _inplace(op: str, target: Any, value: Any) -> Any:
    return INPLACE[op](target, value)  # type: ignore[no-untyped-call]


def _apply(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return func(*args, **kwargs)


def solution_globals(output: Output) -> dict[str, Any]:
    """Fresh globals for one solution: its builtins, guards and print collector."""
    guard = _WriteGuard()
    names = dict(safe_builtins)
    names.update({name: getattr(builtins, name) for name in EXTRA_BUILTINS})
    names.update(__import__=_import, __build_class__=guard.build_class, getattr=_getattr)
    for dangerous in ("setattr", "delattr"):  # they would bypass our write guard's classes
        names.pop(dangerous, None)
    return {
        "__builtins__": names,
        "__name__": "solution",
        "__metaclass__": type,
        "_getattr_": _getattr,
        "_getitem_": operator.getitem,
        "_getiter_": iter,
        "_write_": guard,
        "_print_": lambda _getattr=None: _Printer(output),
        "_unpack_sequence_": _unpack,
        "_iter_unpack_sequence_": _unpack,
        "_inplacevar_": _inplace,
        "_apply_": _apply,
    }


def recursion_limit() -> int:
    return min(sys.getrecursionlimit(), 3000)
