# expect: wrong_answer
# In batch mode subtracts the batch mean as well as dividing by the batch std; the baseline
# is still each group's own mean, only the std is taken over the batch.
import numpy as np


def grpo_advantages(rewards: list[float], group_size: int, mask: list[list[int]],
                    scale: str) -> np.ndarray:
    r = np.asarray(rewards, dtype=np.float64)
    groups = r.reshape(-1, group_size)  # row p: the G completions of prompt p, consecutive
    mean = groups.mean(axis=1, keepdims=True)  # the baseline is always the group's mean
    adv = groups - mean
    if scale == "group":
        std = groups.std(axis=1, ddof=1, keepdims=True)  # sample std (n - 1), as torch.std
        adv = adv / (std + 1e-4)
    elif scale == "batch":
        adv = (groups - r.mean()) / (r.std(ddof=1) + 1e-4)
    # scale == "none": the centred rewards, unscaled
    m = np.asarray(mask, dtype=np.float64)
    return adv.reshape(-1, 1) * m  # each completion's advantage on each of its real tokens
