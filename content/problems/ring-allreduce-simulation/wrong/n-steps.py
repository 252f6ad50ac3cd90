# expect: wrong_answer
# Runs n steps in each phase instead of n - 1: the extra reduce-scatter step adds a
# partial sum into a chunk a second time, and every rank sends one chunk too many.
def ring_allreduce(buffers: list[list[int]]) -> dict:
    n, length = len(buffers), len(buffers[0])
    bounds = [c * length // n for c in range(n + 1)]
    buf = [list(row) for row in buffers]
    sent = [0] * n

    def step(s, offset, reduce):
        messages = []
        for r in range(n):
            c = (r + offset - s) % n
            lo, hi = bounds[c], bounds[c + 1]
            messages.append(((r + 1) % n, lo, buf[r][lo:hi]))
            sent[r] = sent[r] + hi - lo
        for dst, lo, data in messages:
            for i, x in enumerate(data):
                buf[dst][lo + i] = buf[dst][lo + i] + x if reduce else x

    for s in range(n):
        step(s, 0, True)
    after = [list(row) for row in buf]
    for s in range(n):
        step(s, 1, False)
    return {"reduce_scatter": after, "result": buf, "sent": sent}
