# expect: wrong_answer
# The all-gather reuses the reduce-scatter chunk index (r - s) mod n: rank r first sends
# chunk r, which is only a partial sum; the complete one is chunk (r + 1) mod n.
def ring_allreduce(buffers: list[list[int]]) -> dict:
    n, length = len(buffers), len(buffers[0])
    bounds = [c * length // n for c in range(n + 1)]
    buf = [list(row) for row in buffers]
    sent = [0] * n

    def step(s, reduce):
        messages = []
        for r in range(n):
            c = (r - s) % n
            lo, hi = bounds[c], bounds[c + 1]
            messages.append(((r + 1) % n, lo, buf[r][lo:hi]))
            sent[r] = sent[r] + hi - lo
        for dst, lo, data in messages:
            for i, x in enumerate(data):
                buf[dst][lo + i] = buf[dst][lo + i] + x if reduce else x

    for s in range(n - 1):
        step(s, True)
    after = [list(row) for row in buf]
    for s in range(n - 1):
        step(s, False)
    return {"reduce_scatter": after, "result": buf, "sent": sent}
