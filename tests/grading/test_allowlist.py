"""What a solution can reach: the exact names of each module, and a walk of everything
reachable from them through the guarded getattr.

The expected sets are literal on purpose: a name that appears or disappears in the policy
fails here and is reviewed, instead of arriving with a new release of a library."""

from __future__ import annotations

import collections
import heapq
import types
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from bot.grading.sandbox import numpy_gate, policy
from bot.grading.sandbox.guards import guarded_getattr, guarded_getitem


def words(text: str) -> set[str]:
    return set(text.split())


EXPECTED: dict[str, set[str]] = {
    "math": words(
        "acos acosh asin asinh atan atan2 atanh cbrt ceil comb copysign cos cosh degrees dist "
        "e erf erfc exp exp2 expm1 fabs factorial floor fmod frexp fsum gamma gcd hypot inf "
        "isclose isfinite isinf isnan isqrt lcm ldexp lgamma log log10 log1p log2 modf nan "
        "nextafter perm pi pow prod radians remainder sin sinh sqrt tan tanh tau trunc ulp"
    ),
    "itertools": words(
        "accumulate chain combinations combinations_with_replacement compress count cycle "
        "dropwhile filterfalse groupby islice pairwise permutations product repeat starmap "
        "takewhile tee zip_longest"
    ),
    "collections": {"Counter", "OrderedDict", "defaultdict", "deque", "namedtuple"},
    "functools": {"reduce", "cmp_to_key", "partial", "lru_cache", "cache", "total_ordering"},
    "heapq": words("heapify heappop heappush heappushpop heapreplace nlargest nsmallest merge"),
    "bisect": {"bisect", "bisect_left", "bisect_right", "insort", "insort_left", "insort_right"},
    "typing": words(
        "Any AbstractSet Callable Collection Container Counter DefaultDict Deque Dict Final "
        "FrozenSet Generator Hashable Iterable Iterator List Literal Mapping MutableMapping "
        "MutableSequence MutableSet NoReturn Optional OrderedDict Reversible Sequence Set Sized "
        "Tuple Union TYPE_CHECKING TypeVar"
    ),
    "numpy": words(
        "array asarray zeros ones full zeros_like ones_like full_like arange linspace logspace "
        "eye identity diag diagonal tri tril triu meshgrid copy reshape ravel transpose swapaxes "
        "moveaxis expand_dims squeeze stack vstack hstack concatenate split array_split tile "
        "repeat flip fliplr flipud roll broadcast_to atleast_1d atleast_2d where take "
        "take_along_axis argwhere nonzero clip add subtract multiply divide true_divide "
        "floor_divide power mod remainder negative abs absolute sign sqrt square reciprocal exp "
        "exp2 expm1 log log2 log10 log1p logaddexp sin cos tan arcsin arccos arctan arctan2 sinh "
        "cosh tanh hypot maximum minimum fmax fmin floor ceil round rint trunc isnan isinf "
        "isfinite nan_to_num logical_and logical_or logical_not logical_xor greater "
        "greater_equal less less_equal equal not_equal sum prod mean std var max min amax amin "
        "argmax argmin cumsum cumprod median percentile quantile average all any count_nonzero "
        "nansum nanmax nanmin nanmean diff bincount dot matmul inner outer vdot tensordot einsum "
        "trace kron cross sort argsort unique searchsorted partition argpartition allclose "
        "isclose array_equal convolve dtype float64 float32 float16 int64 int32 int16 int8 uint8 "
        "uint16 uint32 uint64 intp bool_ ndarray pi e inf nan newaxis linalg"
    ),
}
LINALG = words(
    "norm inv det solve eig eigh eigvals eigvalsh svd qr cholesky matrix_rank matrix_power pinv "
    "lstsq slogdet multi_dot cond LinAlgError"
)
NEVER = {"get_type_hints", "ForwardRef", "NamedTuple", "TypedDict", "Protocol", "Generic",
         "Type", "cast", "update_wrapper", "wraps", "singledispatch", "singledispatchmethod",
         "UserString", "UserDict", "UserList", "ABCMeta", "ChainMap", "GenericAlias",
         "Annotated", "load", "save", "fromfile", "memmap", "lib", "ctypeslib", "frompyfunc",
         "vectorize", "set_printoptions", "seterrcall", "random", "empty"}  # fmt: skip


def proxy(name: str) -> Any:
    return policy._import(name)


@pytest.mark.parametrize("module", sorted(EXPECTED))
def test_each_module_exposes_exactly_the_reviewed_names(module: str) -> None:
    assert set(vars(proxy(module))) == EXPECTED[module]
    assert not NEVER & EXPECTED[module]


def test_numpy_linalg_is_a_namespace_of_reviewed_names() -> None:
    linalg = proxy("numpy").linalg
    assert type(linalg) is types.SimpleNamespace and set(vars(linalg)) == LINALG


def test_imports_outside_the_list_are_refused() -> None:
    for name in ("os", "sys", "numpy.lib", "numpy.ctypeslib", "typing.io", "collections.abc"):
        with pytest.raises(ImportError):
            policy._import(name)


FORBIDDEN_TYPES = (types.FrameType, types.CodeType, types.ModuleType, types.TracebackType)


def roots() -> list[object]:
    """Every exposed value and builtin, and live objects of the kinds a solution makes."""
    found: list[object] = [v for m in EXPECTED for v in vars(proxy(m)).values()]
    found += vars(proxy("numpy").linalg).values()
    found += policy.solution_globals(policy.Output(10))["__builtins__"].values()
    merge = heapq.merge([1, 3], [2])
    next(merge)
    try:
        {}["missing"]
    except KeyError as exc:
        caught = exc
    np = proxy("numpy")
    found += [merge, (i for i in [1]), caught, np.arange(4.0).reshape(2, 2), np.float64(2),
              collections.Counter("abc"), proxy("functools").lru_cache(abs),
              proxy("functools").partial(max, 1), proxy("collections").namedtuple("P", "x")(1),
              proxy("itertools").groupby("aab"), np.add, np.dtype("f8")]  # fmt: skip
    return found


Getter = Callable[[object, str], object]


def walk(getter: Getter = guarded_getattr, limit: int = 60_000, depth: int = 4) -> list[str]:
    """Breadth-first over non-underscore attributes through the guard; what must not appear."""
    seen: set[int] = set()
    queue = [(obj, f"root{i}", 0) for i, obj in enumerate(roots())]
    bad: list[str] = []
    while queue and len(seen) < limit:
        obj, path, level = queue.pop(0)
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if forbidden(obj):
            bad.append(f"{path}: {type(obj).__name__}")
            continue
        if level < depth:
            queue += [(v, f"{path}.{n}", level + 1) for n, v in attributes(obj, getter)]
    return bad


def attributes(obj: object, getter: Getter) -> list[tuple[str, object]]:
    found = []
    for name in dir(obj):
        if name.startswith("_"):
            continue
        try:
            found.append((name, getter(obj, name)))
        except Exception:  # refused by the guard, or a property that fails on this object
            continue
    return found


def forbidden(obj: object) -> bool:
    if isinstance(obj, FORBIDDEN_TYPES):
        return True
    return type(obj) is dict and any(k in obj for k in ("__builtins__", "__spec__", "__import__"))


def test_nothing_reachable_leads_outside_the_solution() -> None:
    assert walk() == []


def test_the_walk_would_see_a_way_out_through_an_unguarded_getattr() -> None:
    assert any("gi_frame" in path for path in walk(getattr))


@pytest.mark.parametrize(
    "value",
    [types, vars(types), vars(collections), __builtins__, heapq.merge.__code__],
    ids=["module", "module-dict", "module-dict-2", "builtins", "code"],
)
def test_the_value_check_refuses_on_attribute_reads_and_subscriptions(value: object) -> None:
    holder = types.SimpleNamespace(x=value)
    with pytest.raises(AttributeError):
        guarded_getattr(holder, "x")
    with pytest.raises(AttributeError):
        guarded_getitem([value], 0)


def test_guards_themselves_are_not_handed_out() -> None:
    holder = {"g": guarded_getattr, "i": policy._import}
    for key in holder:
        with pytest.raises(AttributeError):
            guarded_getitem(holder, key)


def test_format_is_refused_by_name_on_every_object() -> None:
    for obj in ("{}", str, proxy("typing").List, types.SimpleNamespace(format=1)):
        for name in ("format", "format_map"):
            with pytest.raises(AttributeError):
                guarded_getattr(obj, name)


def test_every_numpy_value_a_solution_gets_is_gated() -> None:
    np = proxy("numpy")
    values = [*vars(np).values(), *vars(np.linalg).values()]
    raw = [v for v in values if not isinstance(v, GATED) and v is not np.linalg
           and type(v) not in (float, type(None)) and v is not np.linalg.LinAlgError]  # fmt: skip
    assert raw == []


GATED = (numpy_gate.Gated, numpy_gate.NumpyClass)


@pytest.mark.parametrize(
    ("make", "answer"),
    [
        (lambda: 3, int),
        (lambda: collections.Counter("ab"), collections.Counter),
        (lambda: proxy("numpy").zeros(2), numpy_gate.STAND_INS[np.ndarray]),
        (lambda: proxy("numpy").float64(1), numpy_gate.STAND_INS[np.float64]),
        (lambda: proxy("numpy").abs(2**63), numpy_gate.STAND_INS[np.uint64]),  # a ulonglong
        (lambda: proxy("math"), TypeError),
        (lambda: memoryview(b"x"), TypeError),
        (lambda: proxy("numpy").linalg.svd(np.eye(2)), TypeError),
    ],
    ids=["int", "Counter", "ndarray", "float64", "ulonglong", "module-proxy", "memoryview",
         "numpy-named-tuple"],
)  # fmt: skip
def test_type_answers_only_with_classes_a_solution_could_name(
    make: Callable[[], object], answer: object
) -> None:
    gate = policy.solution_globals(policy.Output(10))["__builtins__"]["type"]
    if answer is TypeError:
        with pytest.raises(TypeError):
            gate(make())
    else:
        assert gate(make()) is answer


def test_type_of_a_library_exception_is_its_nearest_builtin_class() -> None:
    """`except Exception as e: print(type(e))` on the gate's refusal says TypeError."""
    gate = policy.solution_globals(policy.Output(10))["__builtins__"]["type"]
    assert gate(numpy_gate.NumpyRefused("refused")) is TypeError
    assert gate(np.linalg.LinAlgError("singular")) is np.linalg.LinAlgError  # a named one
