"""The globals a solution runs with: RestrictedPython's guards, supplied by us.

RestrictedPython rewrites `a.b` into `_getattr_(a, "b")`, `a[i]` into `_getitem_(a, i)`,
`for x in y` into `_getiter_(y)`, `a.b = c` into `_write_(a).b = c`, `print(...)` into a
collector made by `_print_`, and tuple unpacking into the `_unpack_` helpers. What those names
do is ours to decide; this module assembles it from:

- guards.py: reads (`_getattr_`, the `getattr` builtin, `_getitem_`), checked by name going in
  and by value coming out;
- classes.py: the class statement, the `type` stand-in and the write guard;
- allowlist.py and numpy_api.py: what each importable module exposes, as namespaces holding
  named, reviewed entries, taken from modules the zygote imported before any solution ran;
  numpy's entries are gated (numpy_gate.py);
- bans.py: what a problem bans, with its equivalents, is absent from that solution's builtins
  and modules (`Importer` hands out namespaces without those names);
- `_apply_` (calls with `*args`/`**kwargs`) refuses keyword names starting with `_`, as
  rules.py does for the keywords written in the source;
- printing goes to a capped buffer the harness reads back.

None of this is a sandbox on its own; the worker process and its limits are.
"""

from __future__ import annotations

import builtins
import operator
import os
import sys
import types
from collections.abc import Callable, Iterable
from typing import Any

from RestrictedPython.Guards import safe_builtins

from bot.grading.sandbox import allowlist, bans, guards, numpy_api
from bot.grading.sandbox.classes import (
    SOLUTION_MODULE,
    ItemWriter,
    TypeGate,
    WriteGuard,
    name_classes,
)
from bot.grading.sandbox.transformer import INPLACE_ATTR, INPLACE_ITEM

ALLOWED_MODULES = ("math", "itertools", "collections", "functools", "heapq", "bisect", "typing",
                   "numpy")  # fmt: skip
SUBMODULES = {"numpy.linalg": ("numpy", "linalg")}
# numpy's C code imports its own helpers on first use through `PyImport_Import`, which calls
# the `__import__` of the running frame's builtins (the solution's, when it calls numpy)
# with an empty list as fromlist; a solution's own import passes None or a tuple.
LIBRARY_PACKAGES = ("numpy.",)

# What real solutions need, beyond RestrictedPython's safe_builtins (which has no containers).
EXTRA_BUILTINS = (
    "all", "any", "dict", "enumerate", "filter", "frozenset", "iter", "list", "map", "max",
    "min", "next", "object", "reversed", "set", "sorted", "sum", "tuple", "zip", "bytes",
    "property", "staticmethod", "classmethod", "NotImplemented",
)  # fmt: skip
# One thread for BLAS in the zygote and its workers: a worker may not start threads, and
# a grading's CPU time is its own.
SINGLE_THREADED = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")

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

    def printer(self, _getattr: object = None) -> _Printer:
        """`_print_`: RestrictedPython makes one printer per function that prints."""
        return _Printer(self)


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


PROXIES: dict[str, types.SimpleNamespace] = {}


def preload() -> None:
    """Import now (in the zygote) all a worker will need, so a worker never opens a file.

    That is the allowed modules, numpy (warmed up: printing and linear algebra import more
    on first use) and `unicodedata`, which the compiler imports on first meeting a non-ASCII
    identifier (`größe = 3`). Then every loaded module's dict is known to the guards."""
    if PROXIES:
        return
    for name in SINGLE_THREADED:
        os.environ.setdefault(name, "1")
    import unicodedata  # noqa: F401

    import numpy

    for name, names in allowlist.exposed().items():
        PROXIES[name] = types.SimpleNamespace(**names)
    PROXIES["numpy"] = types.SimpleNamespace(**numpy_api.exposed(numpy))
    for proxy in PROXIES.values():
        values = list(vars(proxy).values())
        nested = [v for ns in values if isinstance(ns, types.SimpleNamespace)
                  for v in vars(ns).values()]  # np.linalg's: LinAlgError  # fmt: skip
        name_classes([*values, *nested])
    numpy_api.warm_up(numpy)
    guards.collect_namespaces()


def _import(name: str, globals_: object = None, locals_: object = None,
            fromlist: Iterable[str] | None = (), level: int = 0) -> object:  # fmt: skip
    """`__import__` with every module as the allowlists expose it."""
    preload()
    return _import_from(PROXIES, name, fromlist, level)


def _import_from(proxies: dict[str, types.SimpleNamespace], name: str,
                 fromlist: Iterable[str] | None, level: int) -> object:  # fmt: skip
    if type(fromlist) is list and not fromlist and name.startswith(LIBRARY_PACKAGES):
        return _loaded(name)
    if level == 0 and name in SUBMODULES:
        package, attribute = SUBMODULES[name]
        proxy = proxies[package]
        return getattr(proxy, attribute) if fromlist else proxy
    if level != 0 or name not in ALLOWED_MODULES:
        raise ImportError(f"import of '{name}' is not allowed; allowed: "
                          + ", ".join(ALLOWED_MODULES))  # fmt: skip
    return proxies[name]


class Importer:
    """`__import__` for one problem: the modules less what its bans remove (bans.py)."""

    def __init__(self, rules: frozenset[str]) -> None:
        preload()
        self._proxies = {name: _without(proxy, name, rules) for name, proxy in PROXIES.items()}

    def __call__(self, name: str, globals_: object = None, locals_: object = None,
                 fromlist: Iterable[str] | None = (), level: int = 0) -> object:  # fmt: skip
        return _import_from(self._proxies, name, fromlist, level)


def _without(proxy: types.SimpleNamespace, module: str,
             rules: frozenset[str]) -> types.SimpleNamespace:  # fmt: skip
    """`proxy` less the names `rules` ban from `module`, nested namespaces included."""
    gone = bans.attributes_of(rules, module)
    names = {k: v for k, v in vars(proxy).items() if k not in gone}
    for key, value in names.items():
        if type(value) is types.SimpleNamespace:
            names[key] = _without(value, f"{module}.{key}", rules)
    return types.SimpleNamespace(**names)


def _loaded(name: str) -> types.ModuleType:
    """A library module numpy's C code asks for, if loaded already (a worker cannot load)."""
    module = sys.modules.get(name)
    if module is None:
        raise ImportError(f"'{name}' was not preloaded")
    return module


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
    """`f(*args, **kwargs)`: keyword names built at run time are checked as attribute names
    are (a library class may store keywords as attributes: `__array_interface__=`)."""
    for name in kwargs:
        if name[:1] == "_":
            raise TypeError(f'keyword "{name}" is invalid because it starts with "_"')
    return func(*args, **kwargs)


class InplaceGuards:
    """`t[k] op= v` and `o.name op= v` (see transformer.py): read through the read guards,
    compute in place as Python would, write through the solution's write guard."""

    def __init__(self, write: WriteGuard) -> None:
        self._write = write

    def item(self, op: str, target: Any, key: Any, value: Any) -> None:
        current = guards.guarded_getitem(target, key)
        self._write(target)[key] = _inplace(op, current, value)

    def attribute(self, op: str, obj: Any, name: str, value: Any) -> None:
        current = guards.guarded_getattr(obj, name)
        setattr(self._write(obj), name, _inplace(op, current, value))


def solution_builtins(guard: WriteGuard, banned: Iterable[str] = ()) -> dict[str, Any]:
    """A solution's builtins; what `banned` covers (bans.py) is absent, in modules too."""
    rules = bans.expand(banned)
    names = dict(safe_builtins)
    names.update({name: getattr(builtins, name) for name in EXTRA_BUILTINS})
    names.update(__import__=Importer(rules) if rules else _import,
                 __build_class__=guard.build_class, getattr=guards.guarded_getattr,
                 type=TypeGate)  # fmt: skip
    for dangerous in ("setattr", "delattr"):  # they would bypass our write guard's classes
        names.pop(dangerous, None)
    for name in bans.builtins_of(rules):
        names.pop(name, None)
    return names


def solution_globals(output: Output, banned: Iterable[str] = ()) -> dict[str, Any]:
    """Fresh globals for one solution: its builtins, guards and print collector."""
    preload()
    guard = WriteGuard()
    inplace = InplaceGuards(guard)
    return {
        "__builtins__": solution_builtins(guard, banned),
        "__name__": SOLUTION_MODULE,
        "__metaclass__": type,
        "_getattr_": guards.guarded_getattr,
        "_getitem_": guards.guarded_getitem,
        "_getiter_": iter,
        "_write_": guard,
        "_print_": output.printer,
        "_unpack_sequence_": _unpack,
        "_iter_unpack_sequence_": _unpack,
        "_inplacevar_": _inplace,
        INPLACE_ITEM: inplace.item,
        INPLACE_ATTR: inplace.attribute,
        "_apply_": _apply,
    }


def recursion_limit() -> int:
    return min(sys.getrecursionlimit(), 3000)


for _kind in (WriteGuard, Output, _Printer, InplaceGuards, ItemWriter, Importer):
    guards.refuse_type(_kind)
guards.refuse_objects(_import, _import_from, _without, _loaded, _unpack, _inplace, _apply,
                      preload, solution_globals)  # fmt: skip
