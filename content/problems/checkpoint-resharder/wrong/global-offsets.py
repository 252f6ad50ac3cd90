# expect: wrong_answer
# Gives the source and destination offsets in the whole tensor (start * row_size) instead
# of relative to the old and the new shard: each rank's file and buffer start at 0.
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
            if end > start:
                reads.append([k, start * row_size, (end - start) * row_size, start * row_size])
            k += 1
        plan.append(reads)
    return plan
