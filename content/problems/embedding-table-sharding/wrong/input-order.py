# expect: wrong_answer
# Places the tables in input order, without sorting by cost first (online greedy, not LPT).
def shard_tables(tables: list[list[int]], devices: int, capacity: int) -> list[int] | int:
    # largest lookup cost first; sorted() is stable, so equal costs keep table order
    order = list(range(len(tables)))
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
            return -1  # this table fits on no device
        placement[i] = best
        load[best] += cost
        used[best] += size
    return placement
