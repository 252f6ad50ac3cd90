# expect: wrong_answer
# Drops the epsilon and instead sets the advantage to 0 when a group's std is 0: right for
# all-equal groups, but every other advantage is off by the factor std / (std + 1e-4).
import numpy as np


def grpo_advantages(rewards: list[float], group_size: int, mask: list[list[int]],
                    scale: str) -> np.ndarray:
    r = np.asarray(rewards, dtype=np.float64)
    groups = r.reshape(-1, group_size)  # row p: the G completions of prompt p, consecutive
    mean = groups.mean(axis=1, keepdims=True)  # the baseline is always the group's mean
    adv = groups - mean
    if scale == "group":
        std = groups.std(axis=1, ddof=1, keepdims=True)  # sample std (n - 1), as torch.std
        adv = np.where(std > 0, adv / np.where(std > 0, std, 1.0), 0.0)
    elif scale == "batch":
        adv = adv / (r.std(ddof=1) + 1e-4)  # one std over every reward of the batch
    # scale == "none": the centred rewards, unscaled
    m = np.asarray(mask, dtype=np.float64)
    return adv.reshape(-1, 1) * m  # each completion's advantage on each of its real tokens
