# expect: wrong_answer
# Divides by the population std (np.std's default, ddof=0); TRL's GRPOTrainer uses
# torch.std, which is the sample std (n - 1), as the statement says.
import numpy as np


def grpo_advantages(rewards: list[float], group_size: int, mask: list[list[int]],
                    scale: str) -> np.ndarray:
    r = np.asarray(rewards, dtype=np.float64)
    groups = r.reshape(-1, group_size)  # row p: the G completions of prompt p, consecutive
    mean = groups.mean(axis=1, keepdims=True)  # the baseline is always the group's mean
    adv = groups - mean
    if scale == "group":
        std = groups.std(axis=1, keepdims=True)  # sample std (n - 1), as torch.std
        adv = adv / (std + 1e-4)
    elif scale == "batch":
        adv = adv / (r.std(ddof=1) + 1e-4)  # one std over every reward of the batch
    # scale == "none": the centred rewards, unscaled
    m = np.asarray(mask, dtype=np.float64)
    return adv.reshape(-1, 1) * m  # each completion's advantage on each of its real tokens
