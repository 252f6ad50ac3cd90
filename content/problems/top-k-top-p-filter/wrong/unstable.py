# expect: wrong_answer
# Orders the tokens with numpy's default sort (quicksort, not stable): among equal
# probabilities the smaller index does not necessarily come first.
import numpy as np


def filter_probs(logits, temperature, k, p):
    z = np.asarray(logits, dtype=np.float64) / temperature
    probs = np.exp(z - z.max())
    probs = probs / probs.sum()
    kept = np.argsort(-probs)[:k]
    cum = np.cumsum(probs[kept] / probs[kept].sum())
    count = min(int(np.searchsorted(cum, p, side="left")) + 1, len(kept))
    kept = kept[:count]
    out = np.zeros_like(probs)
    out[kept] = probs[kept]
    return out / out.sum()
