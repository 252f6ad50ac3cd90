"""Seeded random rank buffers for the ring all-reduce simulation."""


def rank_buffers(rng, count, max_ranks, max_length):
    cases = []
    for _ in range(count):
        n, length = rng.randint(1, max_ranks), rng.randint(1, max_length)
        cases.append([[[rng.randint(-10**6, 10**6) for _ in range(length)] for _ in range(n)]])
    return cases


def full_size(rng, ranks, length):
    """One case at the largest size: `ranks` ranks with `length` elements each."""
    return [[[[rng.randint(-10**6, 10**6) for _ in range(length)] for _ in range(ranks)]]]
