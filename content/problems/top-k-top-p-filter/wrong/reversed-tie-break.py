# expect: wrong_answer
# Sorts ascending (stable) and reverses the order to get "largest first": among equal
# probabilities the larger index now comes first, not the smaller one.
import numpy as np


def filter_probs(logits, temperature, k, p):
    z = np.asarray(logits, dtype=np.float64) / temperature
    probs = np.exp(z - z.max())
    probs = probs / probs.sum()
    kept = np.argsort(probs, kind="stable")[::-1][:k]
    cum = np.cumsum(probs[kept] / probs[kept].sum())
    count = min(int(np.searchsorted(cum, p, side="left")) + 1, len(kept))
    kept = kept[:count]
    out = np.where(np.bincount(kept, minlength=len(probs)) > 0, probs, 0.0)
    return out / out.sum()
