# expect: wrong_answer
# Lists the frees before the allocations and trusts argsort to keep that order among
# equal times: the default sort is not stable, so at a shared step an allocation may be
# counted before the free.
import numpy as np


def peak_memory(tensors):
    if not tensors:
        return 0
    t = np.array(tensors, dtype=np.int64)
    times = np.concatenate([t[:, 1], t[:, 0]])
    deltas = np.concatenate([-t[:, 2], t[:, 2]])
    order = np.argsort(times)  # frees listed first, hoping the sort keeps them first
    return int(max(0, np.cumsum(deltas[order]).max()))
