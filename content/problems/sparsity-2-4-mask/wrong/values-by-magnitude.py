# expect: wrong_answer
# Sorts each group by magnitude and stores the two kept values largest first, not in
# position order (the mask and the metadata indices are right).
import numpy as np


def sparsify_2_4(w):
    x = np.asarray(w, dtype=np.float64)
    m, n = x.shape
    groups = x.reshape(m * n // 4, 4)
    order = np.argsort(-np.abs(groups), axis=1, kind="stable")[:, :2]  # largest first
    values = np.take_along_axis(groups, order, axis=1).reshape(m, n // 2)
    kept = np.sort(order, axis=1)
    mask = np.zeros((m * n // 4, 4), dtype=bool)
    mask[np.arange(m * n // 4)[:, None], kept] = True
    nibbles = kept[:, 0] | (kept[:, 1] << 2)
    words = nibbles.reshape(m, n // 16, 4) << np.array([0, 4, 8, 12])
    return {"mask": mask.reshape(m, n), "values": values, "metadata": words.sum(axis=2)}
