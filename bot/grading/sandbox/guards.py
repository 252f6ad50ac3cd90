"""The read guards: what `a.b`, `getattr(a, "b")` and `a[i]` may hand a solution.

RestrictedPython rewrites `a.b` into `_getattr_(a, "b")` and `a[i]` into `_getitem_(a, i)`;
the `getattr` builtin a solution gets is the same function as `_getattr_`. Two checks:

- on the way in, by NAME, on every object: underscore names, RestrictedPython's inspection
  names (`gi_frame`, `f_back`, `tb_frame` ...), `format`/`format_map` (a format string walks
  attributes unguarded; any object may delegate them to `str`: aliases, wrappers, user
  strings) and `mro`; on numpy's values and classes only the reviewed names of the numpy
  gate exist, and what they hold goes out through it (numpy_gate.py);
- on the way out, by VALUE, for attribute reads and subscriptions alike: never a module, a
  frame, a code object, a traceback, a namespace dict (a module's, the builtins', a
  solution's own globals, the globals of code `exec`ed by a library) or a guard itself.

The value check costs one set lookup on the hot path: `m[i][j]` on lists of ints returns
after `type(value) in PLAIN`. Everything else takes the slower `refused` path.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from numpy import ndarray
from RestrictedPython.transformer import INSPECT_ATTRIBUTES

from bot.grading.sandbox import numpy_gate

REFUSED_NAMES = INSPECT_ATTRIBUTES | {"format", "format_map", "mro"}
PLAIN = frozenset({int, float, str, bool, type(None), list, tuple, set, frozenset, range})
REFUSED_TYPES: set[type] = {types.FrameType, types.CodeType, types.TracebackType}
# Keys no dict a solution legitimately reads holds together with a guard: found in module
# dicts (`__spec__`), exec'd globals (`__builtins__`) and builtins dicts (`__import__`).
NAMESPACE_KEYS = ("__builtins__", "__spec__", "__import__", "_getattr_")
NAMESPACE_IDS: set[int] = set()
GUARD_IDS: set[int] = set()


class Refused(AttributeError):
    """An attribute or item a solution may not have (an AttributeError, as a missing one is)."""


def guarded_getattr(obj: object, name: str, *default: object) -> Any:
    """`_getattr_` and the `getattr` builtin: name checked going in, value coming out."""
    if type(name) is not str:
        raise TypeError("attribute name must be a string")
    if name[:1] == "_" or name in REFUSED_NAMES:
        raise Refused(_why_name(name))
    if numpy_gate.owns(obj):
        return numpy_gate.attribute(obj, name, *default)
    value = getattr(obj, name, *default)
    if type(value) in PLAIN or not refused(value):
        return value
    raise Refused(f'"{name}" leads outside the solution ({type(value).__name__})')


def guarded_getitem(obj: Any, key: object) -> Any:
    """`_getitem_`: subscription, with the value check of attribute reads; an array's key
    is vetted as numpy's arguments are."""
    if type(obj) is ndarray:
        key = numpy_gate.incoming(key)
    value = obj[key]
    if type(value) in PLAIN or not refused(value):
        return value
    raise Refused(f"that item leads outside the solution ({type(value).__name__})")


def refused(value: object) -> bool:
    """Whether `value` must not reach a solution (the slow path: not a plain value)."""
    kind = type(value)
    if kind in REFUSED_TYPES or isinstance(value, types.ModuleType):
        return True
    if kind is dict:
        return id(value) in NAMESPACE_IDS or _looks_like_namespace(value)  # type: ignore[arg-type]
    if kind is types.MethodType:
        return refused(value.__self__) or id(value.__func__) in GUARD_IDS  # type: ignore[attr-defined]
    return id(value) in GUARD_IDS


def _looks_like_namespace(d: dict[Any, Any]) -> bool:
    return any(key in d for key in NAMESPACE_KEYS)


def _why_name(name: str) -> str:
    if name in ("format", "format_map"):
        return f'"{name}" is not available; use an f-string: f"{{x:>8}}"'
    if name[:1] == "_":
        return f'"{name}" is an invalid attribute name because it starts with "_"'
    return f'"{name}" is a restricted name'


def refuse_type(kind: type) -> None:
    """Never hand out instances of `kind` (the guards' own classes register here)."""
    REFUSED_TYPES.add(kind)


def refuse_objects(*objects: object) -> None:
    """Never hand out these objects (the guard functions register here)."""
    GUARD_IDS.update(id(o) for o in objects)


def collect_namespaces() -> None:
    """Remember every loaded module's dict and the builtins dict (called at preload)."""
    NAMESPACE_IDS.update(id(vars(m)) for m in list(sys.modules.values()) if m is not None)
    NAMESPACE_IDS.add(id(vars(sys.modules["builtins"])))


refuse_objects(guarded_getattr, guarded_getitem)
