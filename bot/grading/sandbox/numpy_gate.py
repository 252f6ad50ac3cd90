"""numpy behind a gate: numpy only ever sees plain data and arrays it made itself.

numpy trusts what it is given. An object with `__array_interface__` names any address as an
array's memory; `np.ndarray(buffer=, strides=)` trusts its own bounds check, which wraps
around; an object-dtype array turns integers into object references; `view`, `resize`,
`data`, `ctypes` and the class's unbound methods reinterpret or free memory. Refusing those
one spelling at a time failed (eight spellings of the object dtype, the same methods read off
the class), so the gate works by kind, in both directions:

- in: every exposed callable (functions, ufuncs and their methods, scalar classes, array
  methods) is a `Gated` wrapper that vets every positional and keyword value before numpy
  sees it. A value passes only if it is plain data (exact `int`, `float`, `bool`,
  `complex`, `str`, `None`, `range`, slices of such, lists and tuples of such, nested) or an
  array, scalar or dtype numpy made, of an allowed dtype. Subscripting an array and storing
  into one vet the key and the value the same way (guards.py, classes.py). A solution's
  subclasses, namespaces, bytes and buffers are refused, so numpy never honours an array
  protocol on a solution's object.
  Keyword names starting with `_` and `buffer`, `strides`, `like`, `signature`, `extobj`
  are refused; a `dtype` keyword goes through `dtype()`, one function with a short list;
- out: whatever a call returns goes through `outgoing`: arrays and scalars of an allowed
  dtype, dtypes and plain data pass; numpy's classes become stand-ins; numpy's callables
  come back gated; anything else (an object array, a flat iterator, a memoryview) is
  refused. An object array can therefore exist only inside one numpy call, built from
  plain data, and never reaches a solution. (`tolist()` alone is not checked: on an
  allowed dtype it gives Python numbers);
- attributes: on numpy's arrays, scalars, dtypes and classes one reviewed list of names
  (`ARRAY`, `SCALAR`, `DTYPE`; a numpy named tuple also has its fields); the values go out
  through `outgoing`. The same list holds on a class as on its instances: a class is a
  stand-in (`NumpyClass`) with no attributes but `dtype`; `isinstance` works through it,
  calling it is gated (`np.ndarray(...)` is refused), and `type(x)` of a numpy value
  answers with it (classes.py).

Left to the layers below, by design: binary operators (`a + x`) convert `x` without the
gate; a solution cannot build an `x` that carries a protocol (RestrictedPython refuses
underscore names in its classes but eight comparison and init methods, keyword names with
`_` are refused, and `type()` hands out no library class the allowlists do not name).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np

# The dtypes a solution may name, build or hold (native byte order, no fields).
DTYPES = frozenset(np.dtype(t) for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128,
))  # fmt: skip
STRING_KIND = "U"  # arrays of str: data, no memory of their own to reinterpret
BUILTIN_DTYPES = frozenset({int, float, bool, complex, str})
REFUSED_KEYWORDS = frozenset({"buffer", "strides", "like", "signature", "extobj"})

# Array attributes a solution may read, reviewed against ndarray's full list. Left out:
# `view`, `resize`, `data`, `ctypes`, `base`, `flags`, `setflags`, `flat`, `getfield`,
# `setfield`, `tofile`, `tobytes`, `dump`, `dumps`, `byteswap`, `strides`, `device`,
# `to_device` (memory, files, pickles, reinterpretation; nothing a solution needs).
ARRAY = frozenset({
    "T", "mT", "all", "any", "argmax", "argmin", "argpartition", "argsort", "astype", "choose",
    "clip", "compress", "conj", "conjugate", "copy", "cumprod", "cumsum", "diagonal", "dot",
    "dtype", "fill", "flatten", "imag", "item", "itemsize", "max", "mean", "min", "nbytes",
    "ndim", "nonzero", "partition", "prod", "put", "ravel", "real", "repeat", "reshape",
    "round", "searchsorted", "shape", "size", "sort", "squeeze", "std", "sum", "swapaxes",
    "take", "tolist", "trace", "transpose", "var",
})  # fmt: skip
SCALAR = ARRAY | {"is_integer", "as_integer_ratio"}
DTYPE = frozenset({"kind", "name", "itemsize", "char", "str", "ndim", "shape"})
PLAIN_RESULTS = frozenset({"tolist"})
UFUNC = ("reduce", "accumulate", "outer", "at")
MAX_DEPTH = 64

BuiltinMethod = types.BuiltinMethodType
_LEAVES = frozenset({int, float, bool, complex, str, type(None), range, type(...)})


class NumpyRefused(TypeError):
    """A value numpy may not take or hand out here."""


class NotAvailable(AttributeError):
    """An attribute of a numpy object outside the reviewed names (missing, as far as a
    solution can tell: `getattr(a, "view", None)` is None)."""


def dtype(value: Any) -> np.dtype[Any]:
    """The one way a dtype is named: a dtype from the short list, or `NumpyRefused`."""
    if isinstance(value, NumpyClass):
        value = value._real
    if not (type(value) is str or isinstance(value, np.dtype) or _is_class_of(value)):
        raise NumpyRefused(f"dtype must be named by a string or a numpy type, not "
                           f"{type(value).__name__}")  # fmt: skip
    try:
        result: np.dtype[Any] = np.dtype(value)
    except (TypeError, ValueError) as exc:
        raise NumpyRefused(f"not a dtype: {value!r}") from exc
    if not allowed(result):
        raise NumpyRefused(f"dtype {result} is not available: use bool, int8-64, uint8-64, "
                           "float16-64 or complex")  # fmt: skip
    return result


def _is_class_of(value: object) -> bool:
    """A builtin or numpy scalar class that names a dtype. Classes hash by identity (their
    metaclass is `type`), so no solution `__eq__` runs."""
    return isinstance(value, type) and value in NAMING_CLASSES


def allowed(dt: np.dtype[Any]) -> bool:
    return dt in DTYPES or (dt.kind == STRING_KIND and dt.isnative)


def incoming(value: Any, depth: int = 0) -> Any:
    """`value` as numpy may receive it (stand-ins become their classes), or `NumpyRefused`."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is slice:  # its bounds reach numpy too
        for bound in (value.start, value.stop, value.step):
            incoming(bound, depth + 1)
        return value
    if kind is list or kind is tuple:
        if depth > MAX_DEPTH:
            raise NumpyRefused("too deeply nested for numpy")
        if _LEAVES.issuperset(map(type, value)):  # a row of numbers: one pass in C
            return value
        return kind(incoming(v, depth + 1) for v in value)
    if kind is np.ndarray or isinstance(value, np.generic):
        if allowed(value.dtype):
            return value
        raise NumpyRefused(f"numpy values of dtype {value.dtype} are not available")
    if isinstance(value, np.dtype):
        if allowed(value):
            return value
        raise NumpyRefused(f"dtype {value} is not available")
    if isinstance(value, type) and value in BUILTIN_DTYPES:
        return value
    if isinstance(value, NumpyClass):
        return dtype(value).type
    raise NumpyRefused(f"numpy does not take a {kind.__name__} here: pass numbers, lists "
                       "of numbers or numpy arrays")  # fmt: skip


def call(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """`func(*args, **kwargs)` with every value vetted going in and the result coming out."""
    vetted = [incoming(a) for a in args]
    named = {}
    for name, value in kwargs.items():
        if type(name) is not str or name[:1] == "_" or name in REFUSED_KEYWORDS:
            raise NumpyRefused(f"numpy's keyword {name!r} is not available")
        named[name] = dtype(value) if name == "dtype" and value is not None else incoming(value)
    return outgoing(func(*vetted, **named))


def outgoing(value: Any, depth: int = 0) -> Any:
    """What a numpy call or attribute hands a solution: checked, gated, or refused."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is np.ndarray or isinstance(value, np.generic):
        if allowed(value.dtype):
            return value
        raise NumpyRefused(f"numpy values of dtype {value.dtype} are not available")
    if isinstance(value, np.dtype):
        return incoming(value)
    if isinstance(value, list | tuple) and depth < MAX_DEPTH:  # `split`, `svd` and the like
        if not _LEAVES.issuperset(map(type, value)):
            for v in value:
                outgoing(v, depth + 1)
        return value
    if isinstance(value, type):
        return stand_in(value)
    if isinstance(value, np.ufunc):
        return GatedUfunc(value)
    if callable(value) and _from_numpy(value):
        return Gated(value)
    raise NumpyRefused(f"a numpy {kind.__name__} is not available")


def _from_numpy(value: Any) -> bool:
    owner = getattr(value, "__self__", None)
    return owns(owner) or (getattr(value, "__module__", None) or "").startswith("numpy")


class Gated:
    """A numpy callable as a solution holds it: arguments vetted, result checked."""

    __slots__ = ("_func",)

    def __init__(self, func: Callable[..., Any]) -> None:
        self._func = func

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return call(self._func, args, kwargs)

    def __repr__(self) -> str:
        return f"<numpy function {getattr(self._func, '__name__', '?')}>"


class GatedUfunc(Gated):
    """A ufunc: callable, and its `reduce`, `accumulate`, `outer` and `at`, gated too."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name not in UFUNC:
            raise AttributeError(name)
        return Gated(getattr(self._func, name))


class NumpyClass(type):
    """The metaclass of the stand-ins: `isinstance` as the real class, calls gated."""

    _real: type
    _construct: Callable[..., Any] | None

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls._construct is None:
            raise NumpyRefused(f"numpy.{cls.__name__}(...) is not available; use np.array")
        return call(cls._construct, args, kwargs)

    def __instancecheck__(cls, obj: Any) -> bool:
        if isinstance(obj, cls._real):
            return True  # else a scalar class of the same dtype: `ulonglong` is a `uint64`
        same = cls._real in SCALAR_CLASSES and isinstance(obj, np.generic)
        return same and obj.dtype == np.dtype(cls._real)

    def __subclasscheck__(cls, sub: Any) -> bool:
        return isinstance(sub, type) and issubclass(getattr(sub, "_real", sub), cls._real)

    def __repr__(cls) -> str:
        return f"<class 'numpy.{cls.__name__}'>"


def _make(real: type, construct: Callable[..., Any] | None) -> NumpyClass:
    body: dict[str, Any] = {"_real": real, "_construct": construct, "__slots__": ()}
    if real in SCALAR_CLASSES:
        body["dtype"] = np.dtype(real)  # numpy reads it: `a.dtype == np.float64` holds
    return NumpyClass(real.__name__, (), body)


SCALAR_CLASSES = frozenset(dt.type for dt in DTYPES)
NAMING_CLASSES = BUILTIN_DTYPES | SCALAR_CLASSES
STAND_INS: dict[type, NumpyClass] = {real: _make(real, real) for real in SCALAR_CLASSES}
BY_DTYPE: dict[np.dtype[Any], NumpyClass] = {np.dtype(real): cls for real, cls in STAND_INS.items()}
STAND_INS[np.str_] = _make(np.str_, np.str_)  # what an array of str holds
STAND_INS[np.ndarray] = _make(np.ndarray, None)
STAND_INS[np.dtype] = _make(np.dtype, dtype)


def stand_in(cls: type) -> NumpyClass:
    """The stand-in of numpy's class `cls`, or refused. Dtype classes share `np.dtype`'s;
    a scalar class shares the stand-in of its dtype's (`ulonglong` is `uint64`'s)."""
    if cls in STAND_INS:
        return STAND_INS[cls]
    if issubclass(cls, np.dtype):
        return STAND_INS[np.dtype]
    if issubclass(cls, np.generic) and np.dtype(cls) in DTYPES:
        return BY_DTYPE[np.dtype(cls)]
    raise NumpyRefused(f"numpy's class {cls.__name__} is not available")


_BY_CLASS = frozenset({"(a class: looked up by itself)"})
_UNSEEN = frozenset({"(not classified yet)"})
_OWNED: dict[type, frozenset[str] | None] = {}  # by the class of a value
_CLASSES: dict[type, frozenset[str] | None] = {}  # by a class itself, read as an object


def owns(obj: object) -> bool:
    """Whether attribute reads on `obj` go through the gate: numpy's values and classes.
    This runs on every attribute read of a solution: one dict lookup for a known class."""
    if _OWNED.get(type(obj), _UNSEEN) is None:  # a class seen before, not numpy's
        return False
    return _names_of(obj) is not None


def _names_of(obj: object) -> frozenset[str] | None:
    """The names readable on `obj` through the gate, or None when it is not numpy's."""
    kind = type(obj)
    if kind not in _OWNED:
        _OWNED[kind] = _BY_CLASS if issubclass(kind, type) else _classify(kind)
    names = _OWNED[kind]
    if names is _BY_CLASS:  # a class: its own attributes, whatever its metaclass holds
        cls: type = obj  # type: ignore[assignment]
        if cls not in _CLASSES:
            _CLASSES[cls] = frozenset() if _numpy_class(cls) else None
        return _CLASSES[cls]
    return names


def _numpy_class(cls: type) -> bool:
    return any((c.__module__ or "").partition(".")[0] == "numpy" for c in cls.__mro__)


def _classify(kind: type) -> frozenset[str] | None:
    if issubclass(kind, BaseException) or not _numpy_class(kind):
        return None
    if issubclass(kind, np.ndarray):
        return ARRAY
    if issubclass(kind, np.generic):
        return SCALAR
    if issubclass(kind, np.dtype):
        return DTYPE
    if issubclass(kind, tuple) and hasattr(kind, "_fields"):  # SVDResult, EighResult ...
        return frozenset(kind._fields)
    return frozenset()


def attribute(obj: object, name: str, *default: object) -> Any:
    """`obj.name` for a numpy object: a reviewed name, its value through `outgoing`."""
    names = _names_of(obj)
    if names is None or name not in names:
        if default:
            return default[0]
        raise NotAvailable(f'"{name}" is not an available attribute of numpy objects')
    value = getattr(obj, name)
    if name in PLAIN_RESULTS:  # Python numbers of an allowed dtype, nothing to check
        return value
    if type(value) is BuiltinMethod:  # a method of this numpy object
        return Gated(value)
    return outgoing(value)


def exposed(value: Any) -> Any:
    """An exposed numpy name's value as a solution gets it."""
    if isinstance(value, type) and not issubclass(value, BaseException):
        return stand_in(value)
    if isinstance(value, np.ufunc):
        return GatedUfunc(value)
    if callable(value):
        return Gated(value)
    return value
