# expect: wrong_answer
# Treats the lifetime as [start, end]: at a shared time step the allocation is counted
# before the free, so a tensor freed at t and one allocated at t are counted together.
def peak_memory(tensors):
    events = []
    for start, end, size in tensors:
        events.append((start, 0, size))
        events.append((end, 1, -size))
    events.sort()
    live = peak = 0
    for _, _, delta in events:
        live += delta
        peak = max(peak, live)
    return peak
