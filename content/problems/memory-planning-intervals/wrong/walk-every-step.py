# expect: time_limit_exceeded
# Walks over every time step from the first allocation to the last free and adds up the
# live tensors at each: O(T·n), and T reaches 10^9.
def peak_memory(tensors):
    if not tensors:
        return 0
    first = min(t[0] for t in tensors)
    last = max(t[1] for t in tensors)
    peak = 0
    for t in range(first, last):
        live = 0
        for start, end, size in tensors:
            if start <= t < end:
                live += size
        peak = max(peak, live)
    return peak
