# expect: wrong_answer
# Accumulates the running total in float32: sizes near 10^9 lose their low bits, and the
# peak comes out a few units off.
import numpy as np


def peak_memory(tensors):
    if not tensors:
        return 0
    t = np.array(tensors, dtype=np.int64)
    times = np.concatenate([t[:, 0], t[:, 1]])
    deltas = np.concatenate([t[:, 2], -t[:, 2]])
    order = np.argsort(times * 2 + (deltas > 0), kind="stable")
    return int(max(0, np.cumsum(deltas[order].astype(np.float32)).max()))
