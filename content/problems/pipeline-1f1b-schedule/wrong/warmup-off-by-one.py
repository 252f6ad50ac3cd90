# expect: wrong_answer
# Warm-up of p - s forwards instead of p - 1 - s: one forward too many before the first
# backward on every stage (the last stage runs F0, F1 before B0).
def pipeline_1f1b(p: int, m: int, f: int, b: int) -> dict:
    orders = []
    for s in range(p):
        warmup = min(p - s, m)
        order = [("F", i) for i in range(warmup)]
        for i in range(m - warmup):
            order += [("F", warmup + i), ("B", i)]
        orders.append(order + [("B", i) for i in range(m - warmup, m)])
    finish, start, free_at, done = {}, [[] for _ in range(p)], [0] * p, 0
    while done < 2 * m * p:
        for s in range(p):
            while len(start[s]) < len(orders[s]):
                kind, i = orders[s][len(start[s])]
                if kind == "F":
                    dep = ("F", i, s - 1) if s > 0 else None
                else:
                    dep = ("B", i, s + 1) if s < p - 1 else ("F", i, s)
                if dep is not None and dep not in finish:
                    break
                t = max(free_at[s], finish[dep] if dep is not None else 0)
                start[s].append(t)
                free_at[s] = t + (f if kind == "F" else b)
                finish[(kind, i, s)] = free_at[s]
                done += 1
    return {"orders": [[k + str(i) for k, i in o] for o in orders], "start": start,
            "makespan": max(free_at)}
