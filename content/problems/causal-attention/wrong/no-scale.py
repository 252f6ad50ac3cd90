# expect: wrong_answer
# Forgets the 1/sqrt(d) scale: scores are sqrt(d) times too large and the softmax too sharp.
import numpy as np


def causal_attention(q, k, v):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    n = q.shape[0]
    s = q @ k.T
    s = np.where(np.tril(np.ones((n, n), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=1, keepdims=True)
    p = np.exp(s)
    return (p / p.sum(axis=1, keepdims=True)) @ v
