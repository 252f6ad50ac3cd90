# expect: time_limit_exceeded
# Observes that the peak is reached at some allocation time and, for each start, adds up
# every tensor live there: right answers, but O(n^2) for n = 20,000 tensors.
def peak_memory(tensors):
    peak = 0
    for s, _, _ in tensors:
        live = 0
        for start, end, size in tensors:
            if start <= s < end:
                live += size
        peak = max(peak, live)
    return peak
