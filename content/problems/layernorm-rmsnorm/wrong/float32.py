# expect: wrong_answer
# Computes in float32: near 1000 its spacing is 6e-5, so a row spread over 1e-3 keeps
# only one or two significant digits of its deviations from the mean.
import numpy as np


def norm(x: list[list[float]], gamma: list[float], beta: list[float],
         kind: str, eps: float) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    g = np.asarray(gamma, dtype=np.float32)
    if kind == "layer":
        # centre each row, then divide by sqrt(biased variance + eps): eps goes inside the root
        xc = x - x.mean(axis=-1, keepdims=True)
        var = (xc * xc).mean(axis=-1, keepdims=True)  # divides by n, not n - 1
        return xc / np.sqrt(var + eps) * g + np.asarray(beta, dtype=np.float32)
    # RMSNorm: no centring and no beta; divide by the root mean square of the row
    ms = (x * x).mean(axis=-1, keepdims=True)
    return x / np.sqrt(ms + eps) * g
