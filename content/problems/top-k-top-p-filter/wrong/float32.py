# expect: wrong_answer
# Computes the softmax in float32.
import numpy as np


def filter_probs(logits, temperature, k, p):
    z = np.asarray(logits, dtype=np.float32) / np.float32(temperature)
    probs = np.exp(z - z.max())
    probs = probs / probs.sum()
    order = np.argsort(-probs, kind="stable")
    top = probs[order[:k]]
    cum = np.cumsum(top / top.sum())
    count = min(int(np.searchsorted(cum, p, side="left")) + 1, len(top))
    kept = order[:count]
    out = np.zeros(len(probs))
    out[kept] = probs[kept]
    return out / out.sum()
