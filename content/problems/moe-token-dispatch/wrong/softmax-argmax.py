# expect: wrong_answer
# Takes the argmax of the router softmax instead of the logits: exp(x - max) rounds to
# exactly 1 for a logit within about 1e-16 of the maximum, a tie the logits do not have.
import math

import numpy as np


def moe_dispatch(logits: list[list[float]], capacity_factor: float) -> dict:
    scores = np.asarray(logits, dtype=np.float64)
    tokens, experts = scores.shape
    capacity = math.floor(capacity_factor * tokens / experts)  # C, per expert
    probs = np.exp(scores - scores.max(axis=1, keepdims=True))
    probs = probs / probs.sum(axis=1, keepdims=True)  # the router probabilities
    choice = np.argmax(probs, axis=1)
    assigned = [[] for _ in range(experts)]
    dropped = []
    for t in range(tokens):  # in token order: the first C tokens of an expert are kept
        e = int(choice[t])
        if len(assigned[e]) < capacity:
            assigned[e].append(t)
        else:
            dropped.append(t)  # overflow: skips the experts (residual path only)
    return {"experts": assigned, "dropped": dropped}
