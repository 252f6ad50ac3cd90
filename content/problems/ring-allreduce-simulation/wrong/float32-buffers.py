# expect: wrong_answer
# Simulates in float32 and converts back to int at the end: sums past 2^24 (32 ranks of
# values near 10^6 reach 3.2e7) are rounded to an even number.
import numpy as np


def ring_allreduce(buffers: list[list[int]]) -> dict:
    n, length = len(buffers), len(buffers[0])
    bounds = [c * length // n for c in range(n + 1)]  # chunk c is [bounds[c], bounds[c+1])
    buf = np.array(buffers, dtype=np.float32)  # row r is rank r's buffer
    sent = [0] * n

    def step(s, offset, reduce):
        # every rank sends at once: copy all messages before writing any
        messages = []
        for r in range(n):
            c = (r + offset - s) % n
            lo, hi = bounds[c], bounds[c + 1]
            messages.append(((r + 1) % n, lo, hi, buf[r, lo:hi].copy()))
            sent[r] += hi - lo
        for dst, lo, hi, data in messages:
            if reduce:
                buf[dst, lo:hi] += data  # reduce-scatter: add into the receiver's chunk
            else:
                buf[dst, lo:hi] = data  # all-gather: overwrite with the finished chunk

    for s in range(n - 1):  # reduce-scatter: rank r sends chunk (r - s) mod n
        step(s, 0, True)
    after = buf.astype(np.int64).tolist()  # rank r now owns the full sum of chunk (r + 1) mod n
    for s in range(n - 1):  # all-gather: rank r passes on chunk (r + 1 - s) mod n
        step(s, 1, False)
    return {"reduce_scatter": after, "result": buf.astype(np.int64).tolist(), "sent": sent}
