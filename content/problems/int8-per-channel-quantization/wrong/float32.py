# expect: wrong_answer
# Computes in float32: w / s moves by up to about 1e-5, enough to cross a .5 boundary that
# the float64 value misses by 2e-6.
import numpy as np


def quantize_per_channel(w: list[list[float]]) -> np.ndarray:
    w = np.asarray(w, dtype=np.float32)
    # one scale per output channel (row): the row's largest magnitude maps to 127
    amax = np.abs(w).max(axis=1, keepdims=True)
    scale = np.where(amax > 0, amax / 127, 1.0)   # an all-zero row: scale 1, all zeros
    # np.rint rounds half to even; clip guards the symmetric range [-127, 127]
    q = np.clip(np.rint(w / scale), -127, 127)
    return q.astype(np.int8)
