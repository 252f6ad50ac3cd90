# expect: wrong_answer
# Rounds half away from zero (floor(|x| + 0.5), as C's round() does) instead of half to
# even as np.rint does: 2.5 becomes 3 instead of 2.
import numpy as np


def quantize_per_channel(w):
    w = np.asarray(w, dtype=np.float64)
    amax = np.abs(w).max(axis=1, keepdims=True)
    scale = np.where(amax > 0, amax / 127, 1.0)
    x = w / scale
    q = np.sign(x) * np.floor(np.abs(x) + 0.5)
    return np.clip(q, -127, 127).astype(np.int8)
