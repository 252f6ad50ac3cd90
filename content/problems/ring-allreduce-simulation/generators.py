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


def near_bound(rng, ranks, length):
    """Every element at +-10^6 or +-999,999, one sign per column: the sums reach +-3.2e7,
    past 2^24, where float32 no longer holds every integer."""
    signs = [rng.choice((-1, 1)) for _ in range(length)]
    return [[[[sign * rng.choice((10**6, 10**6 - 1)) for sign in signs] for _ in range(ranks)]]]
