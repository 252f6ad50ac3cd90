# expect: wrong_answer
# Selects the top k with np.argpartition, then sorts those k by probability: argpartition
# picks an arbitrary subset of tokens tied at the k-th probability, and its output order
# is not index order, so ties are broken arbitrarily.
import numpy as np


def filter_probs(logits, temperature, k, p):
    z = np.asarray(logits, dtype=np.float64) / temperature
    probs = np.exp(z - z.max())
    probs = probs / probs.sum()
    k = min(k, len(probs))
    top = np.argpartition(-probs, k - 1)[:k]
    top = top[np.argsort(-probs[top], kind="stable")]
    cum = np.cumsum(probs[top] / probs[top].sum())
    count = min(int(np.searchsorted(cum, p, side="left")) + 1, len(top))
    kept = top[:count]
    out = np.zeros_like(probs)
    out[kept] = probs[kept]
    return out / out.sum()
