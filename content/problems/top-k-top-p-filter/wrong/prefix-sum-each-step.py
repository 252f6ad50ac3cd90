# expect: time_limit_exceeded
# Right, but finds the top-p cut by summing each prefix q[:i + 1] from scratch: O(kept^2),
# quadratic when top-p keeps most of a large, flat vocabulary.
import numpy as np


def filter_probs(logits, temperature, k, p):
    z = np.asarray(logits, dtype=np.float64) / temperature
    probs = np.exp(z - z.max())
    probs = probs / probs.sum()
    order = np.argsort(-probs, kind="stable")
    top = probs[order[:k]]
    q = top / top.sum()
    count = len(q)
    for i in range(len(q)):
        if q[: i + 1].sum() >= p:
            count = i + 1
            break
    kept = order[:count]
    out = np.zeros(len(probs))
    out[kept] = probs[kept]
    return out / out.sum()
