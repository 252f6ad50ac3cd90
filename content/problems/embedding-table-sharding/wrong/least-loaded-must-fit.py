# expect: wrong_answer
# Picks the least loaded device first and gives up (-1) when the table does not fit there,
# instead of taking the least loaded device among those that fit.
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
            if best == -1 or load[d] < load[best]:
                best = d
        if best != -1 and used[best] + size > capacity:
            best = -1
        if best == -1:
            return -1  # this table fits on no device
        placement[i] = best
        load[best] += cost
        used[best] += size
    return placement
