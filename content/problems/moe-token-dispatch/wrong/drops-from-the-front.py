# expect: wrong_answer
# Enforces the capacity but keeps the last C tokens of each expert and drops the earliest
# ones; tokens are assigned in order, so it is the late tokens that overflow.
import math

import numpy as np


def moe_dispatch(logits: list[list[float]], capacity_factor: float) -> dict:
    scores = np.asarray(logits, dtype=np.float64)
    tokens, experts = scores.shape
    capacity = math.floor(capacity_factor * tokens / experts)
    choice = np.argmax(scores, axis=1)
    assigned = [[] for _ in range(experts)]
    for t in range(tokens):
        assigned[int(choice[t])].append(t)
    dropped = []
    for e in range(experts):
        cut = len(assigned[e]) - capacity
        if cut > 0:
            dropped += assigned[e][:cut]
            assigned[e] = assigned[e][cut:]
    return {"experts": assigned, "dropped": sorted(dropped)}
