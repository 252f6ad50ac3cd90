"""Seeded tests for embedding-table-sharding: random tables, costs with many ties (and all
zero), memory so tight that the least loaded device often does not fit, exact fits, tables
that fit nowhere late in the order, and the largest sizes."""


def random_tables(rng, count, tables, devices, tightness):
    """tightness: the total size over the total capacity, about."""
    cases = []
    for _ in range(count):
        n = rng.randint(0, tables)
        k = rng.randint(1, devices)
        sizes = [rng.choice([1, 2, 3, 5, 8, rng.randint(1, 20)]) for _ in range(n)]
        costs = [rng.choice([0, 1, 2, 3, 5, rng.randint(0, 50)]) for _ in range(n)]
        total = sum(sizes) or 1
        capacity = max(1, max(sizes, default=1), round(total / (k * tightness)))
        cases.append([[[s, c] for s, c in zip(sizes, costs)], k, capacity])
    return cases


def exact_fits(rng, count, devices):
    """Devices filled to exactly their capacity: a fit must be allowed when used + size
    equals the capacity, and one more table then fits nowhere."""
    cases = []
    for _ in range(count):
        k = rng.randint(1, devices)
        capacity = rng.randint(4, 30)
        tables = []
        for _ in range(k):
            left = capacity
            while left:
                s = rng.randint(1, left)
                tables.append([s, rng.randint(0, 9)])
                left -= s
        rng.shuffle(tables)
        if rng.random() < 0.5:
            tables.append([1, rng.randint(0, 9)])  # no room left anywhere: -1
        cases.append([tables, k, capacity])
    return cases


def largest(rng, tables, devices):
    """The largest inputs: random, all costs equal, costs in decreasing and increasing
    table order, and huge sizes and costs near the bounds."""
    n, k = tables, devices
    rand = [[rng.randint(1, 1000), rng.randint(0, 10 ** 6)] for _ in range(n)]
    equal = [[rng.randint(1, 1000), 7] for _ in range(n)]
    down = [[rng.randint(1, 1000), n - i] for i in range(n)]
    up = [[rng.randint(1, 1000), i] for i in range(n)]
    huge = [[rng.randint(10 ** 8, 10 ** 9), rng.randint(10 ** 8, 10 ** 9)] for _ in range(n)]
    cap = 1000 * n // k // 2 + 1000
    return [[rand, k, cap], [equal, k, cap], [down, k, cap], [up, k, cap],
            [huge, k, 10 ** 12], [rand, 1, 10 ** 12]]
