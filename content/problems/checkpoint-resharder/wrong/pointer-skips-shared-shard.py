# expect: wrong_answer
# Advances the old-shard pointer past every shard it read from, so an old shard that two
# new shards share is read only by the first; the second misses its head.
def reshard_plan(row_size, old_bounds, new_bounds):
    plan = []
    n = len(old_bounds) - 1
    i = 0
    for j in range(len(new_bounds) - 1):
        lo, hi = new_bounds[j], new_bounds[j + 1]
        reads = []
        while i < n and old_bounds[i] < hi:
            start, end = max(lo, old_bounds[i]), min(hi, old_bounds[i + 1])
            if end > start:
                reads.append([i, (start - old_bounds[i]) * row_size,
                              (end - start) * row_size, (start - lo) * row_size])
            i += 1
        plan.append(reads)
    return plan
