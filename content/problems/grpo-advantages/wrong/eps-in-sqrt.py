# expect: wrong_answer
# Puts the epsilon inside the square root, sqrt(var + 1e-4), as a LayerNorm does: with a
# std near 1e-3 the advantages shrink tenfold; the rule is std + 1e-4.
import numpy as np


def grpo_advantages(rewards: list[float], group_size: int, mask: list[list[int]],
                    scale: str) -> np.ndarray:
    r = np.asarray(rewards, dtype=np.float64)
    groups = r.reshape(-1, group_size)  # row p: the G completions of prompt p, consecutive
    mean = groups.mean(axis=1, keepdims=True)  # the baseline is always the group's mean
    adv = groups - mean
    if scale == "group":
        var = groups.var(axis=1, ddof=1, keepdims=True)
        adv = adv / np.sqrt(var + 1e-4)
    elif scale == "batch":
        adv = adv / (r.std(ddof=1) + 1e-4)  # one std over every reward of the batch
    # scale == "none": the centred rewards, unscaled
    m = np.asarray(mask, dtype=np.float64)
    return adv.reshape(-1, 1) * m  # each completion's advantage on each of its real tokens
