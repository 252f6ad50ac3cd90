# expect: wrong_answer
# The GPipe order: every stage runs all m forwards, then all m backwards. The makespan is
# the same, but the orders (and the start times inside each stage) are not 1F1B.
def pipeline_1f1b(p: int, m: int, f: int, b: int) -> dict:
    orders = [[("F", i) for i in range(m)] + [("B", i) for i in range(m)] for _ in range(p)]
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
