# expect: wrong_answer
# The textbook formula without subtracting the row maximum: exp(1000) overflows to inf
# and the row becomes nan.
import numpy as np


def softmax(logits: list[list[float]]) -> np.ndarray:
    e = np.exp(np.asarray(logits, dtype=np.float64))
    return e / e.sum(axis=1, keepdims=True)
