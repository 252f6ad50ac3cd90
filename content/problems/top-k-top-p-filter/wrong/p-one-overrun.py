# expect: wrong_answer
# Trusts the floating-point cumulative sum to reach 1: with p = 1 and k < V it can end at
# 0.9999999999999999, searchsorted then points past the top k and one more token is kept.
import numpy as np


def filter_probs(logits: list[float], temperature: float, k: int, p: float) -> np.ndarray:
    z = np.asarray(logits, dtype=np.float64) / temperature
    z = z - z.max()                         # stable softmax
    probs = np.exp(z)
    probs = probs / probs.sum()
    # highest probability first; equal probabilities: smaller index first (stable sort)
    order = np.argsort(-probs, kind="stable")
    top = probs[order[:k]]                  # top-k (k >= len keeps everything)
    cum = np.cumsum(top / top.sum())        # renormalised over the k survivors
    # top-p: the shortest prefix whose cumulative probability reaches p (>= p, inclusive)
    count = int(np.searchsorted(cum, p, side="left")) + 1
    rank = np.argsort(order)                # rank[i] = position of token i in the order
    kept = np.where(rank < count, probs, 0.0)
    return kept / kept.sum()
