# expect: wrong_answer
# RMSNorm written as LayerNorm without beta: it subtracts the row mean before dividing.
# RMSNorm never centres x; it divides x itself by sqrt(mean(x^2) + eps).
import numpy as np


def norm(x, gamma, beta, kind, eps):
    x = np.asarray(x, dtype=np.float64)
    g = np.asarray(gamma, dtype=np.float64)
    xc = x - x.mean(axis=-1, keepdims=True)
    var = (xc * xc).mean(axis=-1, keepdims=True)
    y = xc / np.sqrt(var + eps) * g
    if kind == "layer":
        y = y + np.asarray(beta, dtype=np.float64)
    return y
