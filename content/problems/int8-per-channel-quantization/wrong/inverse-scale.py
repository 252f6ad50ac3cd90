# expect: wrong_answer
# Multiplies by 127 / max instead of dividing by s = max / 127: the two round differently,
# and a value exactly on a .5 boundary of w / s can land just off it and round the other way.
import numpy as np


def quantize_per_channel(w):
    w = np.asarray(w, dtype=np.float64)
    amax = np.abs(w).max(axis=1, keepdims=True)
    inv = np.where(amax > 0, 127 / np.where(amax > 0, amax, 1.0), 1.0)
    return np.clip(np.rint(w * inv), -127, 127).astype(np.int8)
