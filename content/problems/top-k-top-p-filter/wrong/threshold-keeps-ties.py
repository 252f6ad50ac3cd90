# expect: wrong_answer
# Turns each cut into a probability threshold (as transformers' TopKLogitsWarper does) and
# keeps every token at least as likely as the last one kept: tokens tied with it survive too.
import numpy as np


def filter_probs(logits, temperature, k, p):
    z = np.asarray(logits, dtype=np.float64) / temperature
    probs = np.exp(z - z.max())
    probs = probs / probs.sum()
    order = np.argsort(-probs, kind="stable")
    top = probs[order[:k]]
    cum = np.cumsum(top / top.sum())
    count = min(int(np.searchsorted(cum, p, side="left")) + 1, len(top))
    out = np.where(probs >= top[count - 1], probs, 0.0)
    return out / out.sum()
