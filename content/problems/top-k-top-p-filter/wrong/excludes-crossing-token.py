# expect: wrong_answer
# Keeps only the tokens whose cumulative probability is strictly below p (plus the first
# token, so that something survives): the token that makes the sum reach p is dropped.
import numpy as np


def filter_probs(logits, temperature, k, p):
    z = np.asarray(logits, dtype=np.float64) / temperature
    probs = np.exp(z - z.max())
    probs = probs / probs.sum()
    kept = np.argsort(-probs, kind="stable")[:k]
    cum = np.cumsum(probs[kept] / probs[kept].sum())
    mask = (cum < p) | (np.arange(len(cum)) == 0)
    kept = kept[mask]
    out = np.where(np.bincount(kept, minlength=len(probs)) > 0, probs, 0.0)
    return out / out.sum()
