# expect: wrong_answer
# Reads the logits as float32: near 1e9 its numbers are 64 apart, so logits that differ by
# less become ties and go to the lower index.
import math

import numpy as np


def moe_dispatch(logits: list[list[float]], capacity_factor: float) -> dict:
    scores = np.asarray(logits, dtype=np.float32)
    tokens, experts = scores.shape
    capacity = math.floor(capacity_factor * tokens / experts)  # C, per expert
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
