# expect: time_limit_exceeded
# Sweeps the tensors by start, keeping the live ones in a list that it filters and sums
# at every allocation: O(n) per step while all tensors overlap, O(n^2) in all.
def peak_memory(tensors):
    active = []
    peak = 0
    for start, end, size in sorted(tensors):
        active = [(e, z) for e, z in active if e > start]
        active.append((end, size))
        peak = max(peak, sum(z for _, z in active))
    return peak
