# expect: wrong_answer
# Forgets the causal mask: every position attends to future tokens too (bidirectional
# attention); only the last row is right.
import numpy as np


def causal_attention(q, k, v):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    s = q @ k.T / np.sqrt(q.shape[1])
    s = s - s.max(axis=1, keepdims=True)
    p = np.exp(s)
    return (p / p.sum(axis=1, keepdims=True)) @ v
