"""Seeded random put/get streams for the LRU cache."""

from collections import OrderedDict


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


def lru_full(rng, capacity, length, max_key):
    """A full cache under constant use: `capacity` puts of distinct random keys in
    0..max_key, then hits on random cached keys (gets 70%, updates 20%) and inserts of new
    keys (10%, each evicting). Nearly every operation finds its key at a random place of
    the recency order, so a recency kept in a Python list is scanned or shifted at every
    operation, whichever end it keeps the most recent key at."""
    keys = rng.sample(range(max_key + 1), capacity + length)
    cached, fresh = keys[:capacity], keys[capacity:]
    where = {k: i for i, k in enumerate(cached)}  # position in `cached`, for O(1) removal
    recency = OrderedDict((k, None) for k in cached)  # the generator's own LRU bookkeeping
    ops = [["put", k, rng.randint(0, 10**9)] for k in cached]
    while len(ops) < length:
        roll = rng.random()
        if roll < 0.9:
            key = rng.choice(cached)
            recency.move_to_end(key)
            ops.append(["get", key] if roll < 0.7 else ["put", key, rng.randint(0, 10**9)])
            continue
        old, _ = recency.popitem(last=False)
        key = fresh.pop()
        recency[key] = None
        slot = where.pop(old)
        cached[slot], where[key] = key, slot
        ops.append(["put", key, rng.randint(0, 10**9)])
    return [[capacity, ops]]
