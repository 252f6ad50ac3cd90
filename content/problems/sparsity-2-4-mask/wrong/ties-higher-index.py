# expect: wrong_answer
# Among equal magnitudes lets the higher position outrank the lower one, keeping e.g.
# positions 2 and 3 of a group of four equal magnitudes instead of 0 and 1.
import numpy as np


def sparsify_2_4(w: list[list[float]]) -> dict:
    x = np.asarray(w, dtype=np.float64)
    m, n = x.shape
    groups = x.reshape(m * n // 4, 4)  # every group of 4, row after row
    a = np.abs(groups)
    pos = np.arange(4)
    # beats[g, k, j]: element k of group g outranks element j: a larger magnitude, or
    # an equal magnitude at a lower position
    beats = (a[:, :, None] > a[:, None, :]) | (
        (a[:, :, None] == a[:, None, :]) & (pos[:, None] > pos[None, :]))
    rank = beats.sum(axis=1)  # how many elements of its group outrank each element
    mask = rank < 2  # the ranks in a group are 0, 1, 2, 3: keep 0 and 1
    values = groups[mask].reshape(m, n // 2)  # row-major order: increasing position
    kept = np.nonzero(mask)[1].reshape(m * n // 4, 2)  # each group's two positions, a < b
    nibbles = kept[:, 0] | (kept[:, 1] << 2)  # a in bits 0-1, b in bits 2-3
    words = nibbles.reshape(m, n // 16, 4) << np.array([0, 4, 8, 12])  # group j at bit 4j
    return {"mask": mask.reshape(m, n), "values": values, "metadata": words.sum(axis=2)}
