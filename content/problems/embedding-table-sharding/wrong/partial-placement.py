# expect: wrong_answer
# Marks a table that fits nowhere with -1 and carries on, returning a list; the statement
# asks for the single int -1 when any table fits nowhere.
def shard_tables(tables: list[list[int]], devices: int, capacity: int) -> list[int] | int:
    # largest lookup cost first; sorted() is stable, so equal costs keep table order
    order = sorted(range(len(tables)), key=lambda i: -tables[i][1])
    load = [0] * devices  # total lookup cost placed on each device
    used = [0] * devices  # memory taken on each device
    placement = [-1] * len(tables)
    for i in order:
        size, cost = tables[i]
        best = -1
        for d in range(devices):  # the least loaded device that fits; ties: lowest index
            if used[d] + size <= capacity and (best == -1 or load[d] < load[best]):
                best = d
        if best == -1:
            continue
        placement[i] = best
        load[best] += cost
        used[best] += size
    return placement
