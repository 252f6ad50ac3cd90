"""Seeded random put/get streams for the LRU cache."""


def lru_ops(rng, count, capacity, length, key_space):
    """`count` cases: `length` ops over keys 0..key_space-1, about half of them gets."""
    cases = []
    for _ in range(count):
        ops = []
        for _ in range(length):
            key = rng.randrange(key_space)
            if rng.random() < 0.5:
                ops.append(["get", key])
            else:
                ops.append(["put", key, rng.randint(0, 10**9)])
        cases.append([capacity, ops])
    return cases


def lru_large(rng, capacity, length):
    """One large case: fill the cache, then a mix of hits, misses and evictions."""
    ops = [["put", k, rng.randint(0, 10**9)] for k in range(capacity)]
    while len(ops) < length:
        key = rng.randrange(2 * capacity)
        if rng.random() < 0.6:
            ops.append(["get", key])
        else:
            ops.append(["put", key, rng.randint(0, 10**9)])
    return [[capacity, ops]]
