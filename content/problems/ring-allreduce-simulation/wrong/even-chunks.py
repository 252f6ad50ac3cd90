# expect: wrong_answer
# Right schedule, but chunks of ceil(L / n) elements with the last one short, instead of the
# boundaries c * L // n the statement defines: intermediate buffers and send counts differ.
def ring_allreduce(buffers: list[list[int]]) -> dict:
    n, length = len(buffers), len(buffers[0])
    size = -(-length // n)
    bounds = [min(c * size, length) for c in range(n + 1)]
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

    for s in range(n - 1):
        step(s, 0, True)
    after = [list(row) for row in buf]
    for s in range(n - 1):
        step(s, 1, False)
    return {"reduce_scatter": after, "result": buf, "sent": sent}
