# expect: time_limit_exceeded
# Checks every old shard against every new shard (as a generic planner does for arbitrary
# chunks): right reads, but O(N * M) work, and N = M = 20,000 in the largest test.
def reshard_plan(row_size, old_bounds, new_bounds):
    plan = []
    for j in range(len(new_bounds) - 1):
        lo, hi = new_bounds[j], new_bounds[j + 1]
        reads = []
        for k in range(len(old_bounds) - 1):
            start, end = max(lo, old_bounds[k]), min(hi, old_bounds[k + 1])
            if end > start:
                reads.append([k, (start - old_bounds[k]) * row_size,
                              (end - start) * row_size, (start - lo) * row_size])
        plan.append(reads)
    return plan
