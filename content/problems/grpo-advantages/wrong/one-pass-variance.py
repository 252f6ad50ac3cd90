# expect: wrong_answer
# Computes the variance in one pass as E[x^2] - E[x]^2: for rewards near 10^4 that differ by
# about 10^-3 the two terms cancel catastrophically (and can go negative).
import numpy as np


def grpo_advantages(rewards: list[float], group_size: int, mask: list[list[int]],
                    scale: str) -> np.ndarray:
    r = np.asarray(rewards, dtype=np.float64)
    groups = r.reshape(-1, group_size)  # row p: the G completions of prompt p, consecutive
    mean = groups.mean(axis=1, keepdims=True)  # the baseline is always the group's mean
    adv = groups - mean
    if scale == "group":
        g = group_size
        var = ((groups ** 2).mean(axis=1, keepdims=True) - mean ** 2) * g / (g - 1)
        std = np.sqrt(np.maximum(var, 0.0))
        adv = adv / (std + 1e-4)
    elif scale == "batch":
        adv = adv / (r.std(ddof=1) + 1e-4)  # one std over every reward of the batch
    # scale == "none": the centred rewards, unscaled
    m = np.asarray(mask, dtype=np.float64)
    return adv.reshape(-1, 1) * m  # each completion's advantage on each of its real tokens
