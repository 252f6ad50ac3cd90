# expect: wrong_answer
# Picks the expert with max() over (logit, index) pairs, so a tie goes to the higher
# index; the rule (and np.argmax) gives ties to the lower index.
import math


def moe_dispatch(logits: list[list[float]], capacity_factor: float) -> dict:
    tokens, experts = len(logits), len(logits[0])
    capacity = math.floor(capacity_factor * tokens / experts)
    assigned, dropped = [[] for _ in range(experts)], []
    for t, row in enumerate(logits):
        e = max((x, j) for j, x in enumerate(row))[1]
        if len(assigned[e]) < capacity:
            assigned[e].append(t)
        else:
            dropped.append(t)
    return {"experts": assigned, "dropped": dropped}
