# expect: wrong_answer
# Stores the compressed values as float32, as a GPU kernel might: most weights are no
# longer exactly the input values.
import numpy as np


def sparsify_2_4(w):
    x = np.asarray(w, dtype=np.float64)
    m, n = x.shape
    groups = x.reshape(m * n // 4, 4)
    order = np.argsort(-np.abs(groups), axis=1, kind="stable")[:, :2]
    kept = np.sort(order, axis=1)
    mask = np.zeros((m * n // 4, 4), dtype=bool)
    mask[np.arange(m * n // 4)[:, None], kept] = True
    values = np.take_along_axis(groups, kept, axis=1).astype(np.float32).reshape(m, n // 2)
    nibbles = kept[:, 0] | (kept[:, 1] << 2)
    words = nibbles.reshape(m, n // 16, 4) << np.array([0, 4, 8, 12])
    return {"mask": mask.reshape(m, n), "values": values, "metadata": words.sum(axis=2)}
