# expect: wrong_answer
# Selects with NumPy in float32: numbers near 2*10^9 are 128 apart there, so 1999999999
# comes back as 2000000000.
import numpy as np


def top_k(nums, k):
    if k == 0:
        return []
    a = np.array(nums, dtype=np.float32)
    part = np.partition(a, len(a) - k)[len(a) - k:]
    return [int(x) for x in np.sort(part)[::-1]]
