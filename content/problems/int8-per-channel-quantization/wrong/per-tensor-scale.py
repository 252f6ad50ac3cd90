# expect: wrong_answer
# One scale for the whole matrix (per-tensor) instead of one per output channel: rows with
# small weights share the largest row's scale and collapse to a few levels, often all 0.
import numpy as np


def quantize_per_channel(w):
    w = np.asarray(w, dtype=np.float64)
    amax = np.abs(w).max()
    scale = amax / 127 if amax > 0 else 1.0
    return np.clip(np.rint(w / scale), -127, 127).astype(np.int8)
