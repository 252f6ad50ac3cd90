# expect: time_limit_exceeded
# Loops over the stages until every op has run, without noticing when a whole pass makes
# no progress: a deadlocked schedule spins forever instead of returning None.
def simulate(costs, comm, schedule):
    p = len(schedule)
    cost = {"F": costs[0], "B": costs[1], "W": costs[2]}
    ops = [[(op[0], int(op[1:])) for op in stage] for stage in schedule]
    finish, pos, free_at = {}, [0] * p, [0] * p
    while any(pos[s] < len(ops[s]) for s in range(p)):
        for s in range(p):
            while pos[s] < len(ops[s]):
                kind, j = ops[s][pos[s]]
                if kind == "F":
                    deps = [(("F", s - 1, j), comm)] if s > 0 else []
                elif kind == "B":
                    deps = [(("F", s, j), 0)] + ([(("B", s + 1, j), comm)] if s < p - 1 else [])
                else:
                    deps = [(("B", s, j), 0)]
                if any(key not in finish for key, _ in deps):
                    break
                start = max([free_at[s]] + [finish[key] + d for key, d in deps])
                free_at[s] = finish[(kind, s, j)] = start + cost[kind]
                pos[s] += 1
    makespan = max(free_at)
    busy = sum(cost[op[0]] for stage in schedule for op in stage)
    peak = []
    for stage in ops:
        live = best = 0
        for kind, _ in stage:
            live += (kind == "F") - (kind == "W")
            best = max(best, live)
        peak.append(best)
    return {"makespan": makespan, "idle": p * makespan - busy, "peak": peak}
