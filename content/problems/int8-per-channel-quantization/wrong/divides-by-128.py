# expect: wrong_answer
# Takes the scale as max|w| / 128 (thinking of int8's -128): every value comes out 128/127
# times too large and the row maximum has to be clipped back to 127.
import numpy as np


def quantize_per_channel(w):
    w = np.asarray(w, dtype=np.float64)
    amax = np.abs(w).max(axis=1, keepdims=True)
    scale = np.where(amax > 0, amax / 128, 1.0)
    return np.clip(np.rint(w / scale), -127, 127).astype(np.int8)
