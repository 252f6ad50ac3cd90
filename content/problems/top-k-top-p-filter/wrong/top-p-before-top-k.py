# expect: wrong_answer
# Applies the nucleus cut to the full distribution first and top-k afterwards. The order
# matters: after top-k the survivors are renormalised, their cumulative sums are larger,
# and top-p may keep fewer of them.
import numpy as np


def filter_probs(logits, temperature, k, p):
    z = np.asarray(logits, dtype=np.float64) / temperature
    probs = np.exp(z - z.max())
    probs = probs / probs.sum()
    order = np.argsort(-probs, kind="stable")
    cum = np.cumsum(probs[order])
    count = min(int(np.searchsorted(cum, p, side="left")) + 1, len(order))
    kept = order[:count][:k]
    out = np.where(np.bincount(kept, minlength=len(probs)) > 0, probs, 0.0)
    return out / out.sum()
