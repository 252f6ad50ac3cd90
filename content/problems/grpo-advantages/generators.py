"""Seeded tests for grpo-advantages: 0/1 correctness rewards (so whole groups are often all
right or all wrong, std 0), continuous rewards, rewards near 10^4 that differ by about 10^-3 (a
one-pass variance or float32 loses them), right-padded masks with empty completions, and
the three scale modes at the largest sizes."""

MODES = ["group", "batch", "none"]


def _mask(rng, rows, length):
    mask = []
    for _ in range(rows):
        used = rng.choice([0, length, rng.randint(1, length), rng.randint(1, length)])
        mask.append([1] * used + [0] * (length - used))
    return mask


def _rewards(rng, n, kind):
    if kind == "binary":
        return [float(rng.random() < 0.5) for _ in range(n)]
    if kind == "offset":  # near 10^4, about 10^-3 apart: exact binary fractions, so every
        # sum of them is exact and any summation order gives the same mean
        base = rng.choice([10000.0, -9999.0, 8192.0])
        return [base - rng.randint(0, 9) / 1024 for _ in range(n)]
    if kind == "steps":  # few distinct values: ties in every group
        return [rng.choice([-1.0, 0.0, 0.5, 2.0]) for _ in range(n)]
    return [round(rng.gauss(0.0, rng.choice([0.001, 1.0, 100.0])), 6) for _ in range(n)]


def random_batches(rng, count, prompts, group, length, kinds):
    cases = []
    for i in range(count):
        b = rng.randint(1, prompts)
        g = rng.randint(2, group)
        n = b * g
        L = rng.randint(1, length)
        kind = kinds[i % len(kinds)]
        cases.append([_rewards(rng, n, kind), g, _mask(rng, n, L), MODES[i % 3]])
    return cases


def structured(rng):
    """The largest and the degenerate: every group all equal (std 0 in each group, and in
    the batch too), one prompt, G = 2, G = 256, B * G = 4096 with B * G * L near 2 * 10^5, and the
    reward bounds +-10^6."""
    cases = []
    equal = [float(p % 3) for p in range(64) for _ in range(8)]
    for mode in MODES:
        cases.append([equal, 8, _mask(rng, 512, 4), mode])
        cases.append([[7.0] * 16, 16, [[1, 1, 0]] * 16, mode])  # one group, all equal
        cases.append([[1e6, -1e6] * 100, 2, _mask(rng, 200, 3), mode])
        cases.append([_rewards(rng, 256, "gauss"), 256, _mask(rng, 256, 5), mode])
    cases.append([_rewards(rng, 1024, "binary"), 16, _mask(rng, 1024, 40), "none"])
    cases.append([_rewards(rng, 1024, "offset"), 16, _mask(rng, 1024, 40), "batch"])
    cases.append([_rewards(rng, 4096, "offset"), 4, _mask(rng, 4096, 48), "group"])
    return cases
