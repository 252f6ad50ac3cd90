# expect: wrong_answer
# Reads the groups as strided (reshape(G, -1).T: completion j of prompt p at j * B + p);
# the G completions of one prompt are consecutive.
import numpy as np


def grpo_advantages(rewards: list[float], group_size: int, mask: list[list[int]],
                    scale: str) -> np.ndarray:
    r = np.asarray(rewards, dtype=np.float64)
    groups = r.reshape(group_size, -1).T
    mean = groups.mean(axis=1, keepdims=True)  # the baseline is always the group's mean
    adv = groups - mean
    if scale == "group":
        std = groups.std(axis=1, ddof=1, keepdims=True)  # sample std (n - 1), as torch.std
        adv = adv / (std + 1e-4)
    elif scale == "batch":
        adv = adv / (r.std(ddof=1) + 1e-4)  # one std over every reward of the batch
    # scale == "none": the centred rewards, unscaled
    m = np.asarray(mask, dtype=np.float64)
    return adv.reshape(-1, 1) * m  # each completion's advantage on each of its real tokens
