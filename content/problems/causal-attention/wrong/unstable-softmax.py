# expect: wrong_answer
# Exponentiates the scores without subtracting the row maximum: a score of 10,000 overflows
# to inf and the row becomes nan.
import numpy as np


def causal_attention(q, k, v):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    n = q.shape[0]
    s = q @ k.T / np.sqrt(q.shape[1])
    p = np.exp(s) * np.tril(np.ones((n, n)))
    return (p / p.sum(axis=1, keepdims=True)) @ v
