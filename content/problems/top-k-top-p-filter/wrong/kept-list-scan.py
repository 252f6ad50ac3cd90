# expect: time_limit_exceeded
# Right, but builds the output by testing `i in kept` on a Python list for every token:
# O(V x kept), quadratic when top-p keeps most of a large vocabulary.
import numpy as np


def filter_probs(logits, temperature, k, p):
    z = np.asarray(logits, dtype=np.float64) / temperature
    probs = np.exp(z - z.max())
    probs = probs / probs.sum()
    order = np.argsort(-probs, kind="stable")
    top = probs[order[:k]]
    cum = np.cumsum(top / top.sum())
    count = min(int(np.searchsorted(cum, p, side="left")) + 1, len(top))
    kept = order[:count].tolist()
    total = sum(probs[i] for i in kept)
    return [float(probs[i] / total) if i in kept else 0.0 for i in range(len(probs))]
