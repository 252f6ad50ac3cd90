# expect: wrong_answer
# Computes in float32: near scores of 1e5 its spacing is about 0.01, so the weights of
# scores that differ by about 1 are off by about 1%.
import numpy as np


def causal_attention(q: list[list[float]], k: list[list[float]],
                     v: list[list[float]]) -> np.ndarray:
    q = np.asarray(q, dtype=np.float32)
    k = np.asarray(k, dtype=np.float32)
    v = np.asarray(v, dtype=np.float32)
    n, d = q.shape
    scores = q @ k.T / np.sqrt(d)                      # (n, n), scaled by 1/sqrt(d)
    visible = np.tril(np.ones((n, n), dtype=bool))     # j <= i
    scores = np.where(visible, scores, -np.inf)        # mask BEFORE the softmax
    # stable softmax: subtract each row's max (finite: the diagonal is always visible)
    scores = scores - scores.max(axis=1, keepdims=True)
    p = np.exp(scores)                                 # exp(-inf) = 0 for future tokens
    p = p / p.sum(axis=1, keepdims=True)
    return p @ v
