# expect: wrong_answer
# Computes the variance in one pass as E[x^2] - E[x]^2: on rows with a large mean and a
# tiny spread the two terms cancel and the rounding error of E[x^2] swamps the variance.
import numpy as np


def norm(x, gamma, beta, kind, eps):
    x = np.asarray(x, dtype=np.float64)
    g = np.asarray(gamma, dtype=np.float64)
    if kind == "layer":
        mu = x.mean(axis=-1, keepdims=True)
        var = (x * x).mean(axis=-1, keepdims=True) - mu * mu
        return (x - mu) / np.sqrt(var + eps) * g + np.asarray(beta, dtype=np.float64)
    ms = (x * x).mean(axis=-1, keepdims=True)
    return x / np.sqrt(ms + eps) * g
