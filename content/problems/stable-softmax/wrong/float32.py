# expect: wrong_answer
# Computes in float32: near 10^4 its numbers are 0.001 apart, so logits that differ by a
# few units get probabilities off by about 1e-4 relative.
import numpy as np


def softmax(logits: list[list[float]]) -> np.ndarray:
    x = np.asarray(logits, dtype=np.float32)
    # subtract each row's max: every exponent is <= 0 and the largest term is exp(0) = 1
    shifted = x - x.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=1, keepdims=True)
