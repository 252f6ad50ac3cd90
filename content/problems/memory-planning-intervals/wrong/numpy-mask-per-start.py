# expect: time_limit_exceeded
# For each allocation time, sums the sizes of the tensors live there with a NumPy mask:
# every step is vectorised, but there are n of them over n tensors, O(n^2) in all.
import numpy as np


def peak_memory(tensors):
    if not tensors:
        return 0
    t = np.array(tensors, dtype=np.int64)
    s, e, z = t[:, 0], t[:, 1], t[:, 2]
    peak = 0
    for x in s:
        live = int(z[(s <= x) & (x < e)].sum())
        peak = max(peak, live)
    return peak
