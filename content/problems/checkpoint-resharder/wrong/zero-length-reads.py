# expect: wrong_answer
# Keeps intersections with end >= start, so an empty old shard inside the new range (or an
# old shard meeting an empty new shard) yields a read of length 0; the plan must be minimal.
def reshard_plan(row_size, old_bounds, new_bounds):
    plan = []
    n = len(old_bounds) - 1
    i = 0
    for j in range(len(new_bounds) - 1):
        lo, hi = new_bounds[j], new_bounds[j + 1]
        while i < n and old_bounds[i + 1] <= lo:
            i += 1
        reads = []
        k = i
        while k < n and old_bounds[k] < hi:
            start, end = max(lo, old_bounds[k]), min(hi, old_bounds[k + 1])
            if end >= start:
                reads.append([k, (start - old_bounds[k]) * row_size,
                              (end - start) * row_size, (start - lo) * row_size])
            k += 1
        plan.append(reads)
    return plan
