# expect: wrong_answer
# Computes the capacity as capacity_factor * (T / E): T / E is rounded first, and with
# capacity_factor = 1.75, T = 244, E = 7 the product is 60.99999999999999, so C = 60, not 61.
import math

import numpy as np


def moe_dispatch(logits: list[list[float]], capacity_factor: float) -> dict:
    scores = np.asarray(logits, dtype=np.float64)
    tokens, experts = scores.shape
    capacity = math.floor(capacity_factor * (tokens / experts))
    choice = np.argmax(scores, axis=1)  # top-1 expert; ties go to the lower index
    assigned = [[] for _ in range(experts)]
    dropped = []
    for t in range(tokens):  # in token order: the first C tokens of an expert are kept
        e = int(choice[t])
        if len(assigned[e]) < capacity:
            assigned[e].append(t)
        else:
            dropped.append(t)  # overflow: skips the experts (residual path only)
    return {"experts": assigned, "dropped": dropped}
