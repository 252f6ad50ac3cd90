# expect: wrong_answer
# Frees a micro-batch's activations at its B instead of its W: the weight gradient still
# needs the stored input, so the peak is undercounted when W passes are deferred.
def simulate(costs: list[int], comm: int, schedule: list[list[str]]) -> dict | None:
    p = len(schedule)
    cost = {"F": costs[0], "B": costs[1], "W": costs[2]}
    ops = [[(op[0], int(op[1:])) for op in stage] for stage in schedule]
    finish: dict[tuple[str, int, int], int] = {}  # (kind, stage, micro-batch) -> finish time
    pos = [0] * p  # the next op of each stage
    free_at = [0] * p  # when each stage finishes its last op so far
    waiters: dict[tuple[str, int, int], list[int]] = {}  # op -> stages blocked on it
    todo = list(range(p))  # stages that may be able to advance
    while todo:
        s = todo.pop()
        while pos[s] < len(ops[s]):
            kind, j = ops[s][pos[s]]
            if kind == "F":  # the previous stage's forward, sent over the link
                deps = [(("F", s - 1, j), comm)] if s > 0 else []
            elif kind == "B":  # this stage's forward, and the next stage's input gradient
                deps = [(("F", s, j), 0)] + ([(("B", s + 1, j), comm)] if s < p - 1 else [])
            else:  # W: the weight gradient needs this stage's B
                deps = [(("B", s, j), 0)]
            start, blocked = free_at[s], None
            for key, delay in deps:
                if key not in finish:
                    blocked = key
                    break
                start = max(start, finish[key] + delay)
            if blocked is not None:  # wait until that op finishes
                waiters.setdefault(blocked, []).append(s)
                break
            free_at[s] = finish[(kind, s, j)] = start + cost[kind]
            pos[s] += 1
            todo += waiters.pop((kind, s, j), [])
    if any(pos[s] < len(ops[s]) for s in range(p)):
        return None  # some stage waits forever: the schedule deadlocks
    makespan = max(free_at)
    busy = sum(cost[op[0]] for stage in schedule for op in stage)
    peak = []
    for stage in ops:  # micro-batches whose F ran and whose W has not yet
        live = best = 0
        for kind, _ in stage:
            live += (kind == "F") - (kind == "B")
            best = max(best, live)
        peak.append(best)
    return {"makespan": makespan, "idle": p * makespan - busy, "peak": peak}
