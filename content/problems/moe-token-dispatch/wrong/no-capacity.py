# expect: wrong_answer
# Routes every token to its argmax expert and never drops anything: the expert capacity
# C = floor(capacity_factor * T / E) is ignored.
import numpy as np


def moe_dispatch(logits: list[list[float]], capacity_factor: float) -> dict:
    scores = np.asarray(logits, dtype=np.float64)
    choice = np.argmax(scores, axis=1)
    assigned = [[] for _ in range(scores.shape[1])]
    for t in range(scores.shape[0]):
        assigned[int(choice[t])].append(t)
    return {"experts": assigned, "dropped": []}
