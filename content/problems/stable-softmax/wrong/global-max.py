# expect: wrong_answer
# Subtracts the maximum of the whole matrix instead of each row's: a row far below the
# global maximum underflows to all zeros and divides 0 by 0.
import numpy as np


def softmax(logits: list[list[float]]) -> np.ndarray:
    x = np.asarray(logits, dtype=np.float64)
    e = np.exp(x - x.max())
    return e / e.sum(axis=1, keepdims=True)
