# expect: wrong_answer
# Adds eps to the standard deviation instead of the variance: (x - mean) / (sqrt(var) + eps).
# Invisible on rows with a large spread, wrong on rows whose variance is close to eps.
import numpy as np


def norm(x, gamma, beta, kind, eps):
    x = np.asarray(x, dtype=np.float64)
    g = np.asarray(gamma, dtype=np.float64)
    if kind == "layer":
        xc = x - x.mean(axis=-1, keepdims=True)
        std = np.sqrt((xc * xc).mean(axis=-1, keepdims=True))
        return xc / (std + eps) * g + np.asarray(beta, dtype=np.float64)
    rms = np.sqrt((x * x).mean(axis=-1, keepdims=True))
    return x / (rms + eps) * g
