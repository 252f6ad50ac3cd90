# expect: wrong_answer
# Applies the mask after the softmax by zeroing future weights: the remaining weights no
# longer sum to 1 (the future tokens still took their share of the denominator).
import numpy as np


def causal_attention(q, k, v):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    n = q.shape[0]
    s = q @ k.T / np.sqrt(q.shape[1])
    s = s - s.max(axis=1, keepdims=True)
    p = np.exp(s)
    p = p / p.sum(axis=1, keepdims=True)
    p = p * np.tril(np.ones((n, n)))
    return p @ v
