# expect: time_limit_exceeded
# Scans the old shards from rank 0 for every new shard and stops at the first one past it:
# fine for the first new ranks, but the last ones walk past almost every old shard, O(N * M).
def reshard_plan(row_size, old_bounds, new_bounds):
    plan = []
    n = len(old_bounds) - 1
    for j in range(len(new_bounds) - 1):
        lo, hi = new_bounds[j], new_bounds[j + 1]
        reads = []
        k = 0
        while k < n and old_bounds[k] < hi:
            start, end = max(lo, old_bounds[k]), min(hi, old_bounds[k + 1])
            if end > start:
                reads.append([k, (start - old_bounds[k]) * row_size,
                              (end - start) * row_size, (start - lo) * row_size])
            k += 1
        plan.append(reads)
    return plan
