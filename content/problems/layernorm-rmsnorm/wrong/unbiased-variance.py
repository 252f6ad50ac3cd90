# expect: wrong_answer
# Uses the unbiased sample variance (ddof=1, dividing by n - 1). LayerNorm normalises with
# the biased variance (dividing by n), as torch.nn.LayerNorm does; for n = 1 this is 0 / 0.
import numpy as np


def norm(x, gamma, beta, kind, eps):
    x = np.asarray(x, dtype=np.float64)
    g = np.asarray(gamma, dtype=np.float64)
    if kind == "layer":
        mean = x.mean(axis=-1, keepdims=True)
        var = x.var(axis=-1, ddof=1, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * g + np.asarray(beta, dtype=np.float64)
    ms = (x * x).mean(axis=-1, keepdims=True)
    return x / np.sqrt(ms + eps) * g
