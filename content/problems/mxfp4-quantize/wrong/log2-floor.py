# expect: wrong_answer
# Takes the exponent as floor(np.log2(amax)): for the largest float below 2**k, log2 rounds
# up to exactly k, so the scale is one too large (math.frexp is exact).
import math

import numpy as np


def mxfp4_quantize(x: list[float]) -> dict:
    n = len(x)
    if n == 0:
        return {"scales": [], "values": []}
    v = np.asarray(x, dtype=np.float64)
    # blocks of 32; the last one is padded with zeros, which change no block's max |x|
    blocks = np.concatenate([v, np.zeros((-n) % 32)]).reshape(-1, 32)
    scales = []
    for amax in np.abs(blocks).max(axis=1).tolist():
        if amax == 0:
            scales.append(-127)  # an all-zero block: the smallest E8M0 exponent
        else:
            # frexp is exact: amax = m * 2**p with 0.5 <= m < 1, so floor(log2(amax)) = p - 1;
            # the shared exponent is that minus emax_elem = 2 (6 = 1.5 * 2**2)
            scales.append(int(np.floor(np.log2(amax))) - 2)
    power = np.array([math.ldexp(1.0, e) for e in scales])[:, None]  # 2**e per block
    mag = np.abs(blocks) / power  # exact: a division by a power of two
    # the E2M1 grid is 0.5 apart below 2, 1 apart in [2, 4) and 2 apart in [4, 6];
    # np.rint rounds half to even, which is the even mantissa bit on this grid
    q = np.where(mag < 2, np.rint(mag * 2) / 2,
                 np.where(mag < 4, np.rint(mag), np.rint(mag / 2) * 2))
    q = np.minimum(q, 6.0)  # saturate at the largest normal, 6
    values = np.where(blocks < 0, -q, q) * power
    return {"scales": scales, "values": values.ravel()[:n].tolist()}
