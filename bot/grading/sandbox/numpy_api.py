"""numpy as a solution sees it: array creation, math, reductions, linear algebra, dtypes.

Only the names below exist for a solution (`np.linalg` is a nested namespace of the same
kind), and each reaches it through the gate (numpy_gate.py): callables vet what they are
given and check what they return, classes are stand-ins. Left out on purpose:

- files and serialisation: `load*`, `save*`, `fromfile`, `genfromtxt`, `loadtxt`, `memmap`,
  `DataSource`, and the `lib`, `ctypeslib`, `testing` and `random` namespaces (random's bit
  generators carry `ctypes`/`cffi` interfaces); on arrays and numpy scalars only reviewed
  attributes exist (numpy_gate.ARRAY);
- callbacks driven by numpy's own Python code or object-dtype ufuncs (`frompyfunc`,
  `vectorize`, `apply_along_axis`, `fromfunction`, `piecewise`): nothing needs them, and
  each is a place where library code calls a solution's callable with its own state;
- process-wide settings (`set_printoptions`, `seterr`, `seterrcall`, `errstate`);
- uninitialised memory (`empty`, `empty_like`): it shows whatever the worker freed before.

The names are common to numpy 1.26 and 2.x.
"""

from __future__ import annotations

import types
from typing import Any

from bot.grading.sandbox.numpy_gate import exposed as gated

NUMPY = (
    # creation
    "array", "asarray", "zeros", "ones", "full", "zeros_like", "ones_like", "full_like",
    "arange", "linspace", "logspace", "eye", "identity", "diag", "diagonal", "tri", "tril",
    "triu", "meshgrid", "copy",
    # shape
    "reshape", "ravel", "transpose", "swapaxes", "moveaxis", "expand_dims", "squeeze",
    "stack", "vstack", "hstack", "concatenate", "split", "array_split", "tile", "repeat",
    "flip", "fliplr", "flipud", "roll", "broadcast_to", "atleast_1d", "atleast_2d",
    "where", "take", "take_along_axis", "argwhere", "nonzero", "clip",
    # elementwise (ufuncs)
    "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power", "mod",
    "remainder", "negative", "abs", "absolute", "sign", "sqrt", "square", "reciprocal",
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "sin", "cos",
    "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "hypot",
    "maximum", "minimum", "fmax", "fmin", "floor", "ceil", "round", "rint", "trunc",
    "isnan", "isinf", "isfinite", "nan_to_num", "logical_and", "logical_or", "logical_not",
    "logical_xor", "greater", "greater_equal", "less", "less_equal", "equal", "not_equal",
    # reductions
    "sum", "prod", "mean", "std", "var", "max", "min", "amax", "amin", "argmax", "argmin",
    "cumsum", "cumprod", "median", "percentile", "quantile", "average", "all", "any",
    "count_nonzero", "nansum", "nanmax", "nanmin", "nanmean", "diff", "bincount",
    # linear algebra, sorting, comparison
    "dot", "matmul", "inner", "outer", "vdot", "tensordot", "einsum", "trace", "kron",
    "cross", "sort", "argsort", "unique", "searchsorted", "partition", "argpartition",
    "allclose", "isclose", "array_equal", "convolve",
    # dtypes and constants
    "dtype", "float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8",
    "uint16", "uint32", "uint64", "intp", "bool_",
    "ndarray",  # for isinstance only: the stand-in refuses calls (`buffer=`, `strides=`)
    "pi", "e", "inf", "nan", "newaxis",
)  # fmt: skip

LINALG = (
    "norm", "inv", "det", "solve", "eig", "eigh", "eigvals", "eigvalsh", "svd", "qr",
    "cholesky", "matrix_rank", "matrix_power", "pinv", "lstsq", "slogdet", "multi_dot",
    "cond", "LinAlgError",
)  # fmt: skip


def exposed(np: types.ModuleType) -> dict[str, Any]:
    """The names a solution gets from `import numpy` (numpy imported by the caller)."""
    names: dict[str, Any] = {name: gated(getattr(np, name)) for name in NUMPY}
    linalg = {name: gated(getattr(np.linalg, name)) for name in LINALG if name != "LinAlgError"}
    # The exception class itself, as `except np.linalg.LinAlgError:` needs: a class of
    # `ValueError`'s family, whose instances hold a message and nothing of numpy's.
    names["linalg"] = types.SimpleNamespace(**linalg, LinAlgError=np.linalg.LinAlgError)
    return names


def warm_up(np: types.ModuleType) -> None:
    """Run what imports lazily (printing, linear algebra, `numpy.ma` for `unique`, `median`
    and `percentile`) before a worker loses its files; test_numpy_fuzz.py calls every exposed
    name in a worker and would report one that still imports."""
    x = np.linalg.inv(np.eye(2) * 2.0) @ np.exp(np.array([[0.5, 1.0], [2.0, 3.0]]))
    str(x), repr(np.float64(1.5)), np.linalg.svd(x), np.linalg.eigh(x + x.T), x.tolist()
    np.unique([2, 1]), np.median(x), np.percentile(x, 50)
