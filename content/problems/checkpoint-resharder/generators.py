"""Seeded tests for checkpoint-resharder: random shardings with empty shards and shared
boundaries, and structured ones (even splits, one rank holding everything, fine to coarse,
coarse to fine, runs of empty shards at one row) at the largest sizes."""


def _bounds(rng, ranks, rows, empty_share):
    """ranks + 1 non-decreasing boundaries from 0 to rows; about empty_share of the shards
    are empty (a repeated boundary)."""
    cuts = []
    for _ in range(ranks - 1):
        if cuts and rng.random() < empty_share:
            cuts.append(cuts[-1])  # repeated: an empty shard
        else:
            cuts.append(rng.randint(0, rows))
    cuts.sort()
    return [0, *cuts, rows]


def random_plans(rng, count, old, new, rows, row_size, empty_share):
    cases = []
    for _ in range(count):
        n = rng.randint(1, old) if old <= 20 else old
        m = rng.randint(1, new) if new <= 20 else new
        r = rng.randint(0, rows) if rows <= 50 else rows
        size = rng.randint(1, row_size)
        cases.append([size, _bounds(rng, n, r, empty_share), _bounds(rng, m, r, empty_share)])
    return cases


def shared_cuts(rng, count, ranks, rows):
    """Old and new boundaries drawn from one small set of rows: reads end exactly where
    the next old shard starts, at every cut."""
    cases = []
    for _ in range(count):
        points = sorted(rng.sample(range(1, rows), 4))
        old = [0, *sorted(rng.choice(points) for _ in range(ranks - 1)), rows]
        new = [0, *sorted(rng.choice(points) for _ in range(ranks - 1)), rows]
        cases.append([rng.randint(1, 3), old, new])
    return cases


def structured(rng, ranks):
    """Largest cases: an even split onto a different even split, fine to coarse, coarse to
    fine, everything on one rank, runs of empty shards at one row, and the largest offsets."""
    n = ranks
    rows = 6 * n
    even_old = [6 * i for i in range(n + 1)]
    even_new = [rows * j // (n // 2) for j in range(n // 2 + 1)]
    fine = list(range(n + 1))  # one row per old rank
    coarse = [0, n // 3, n // 3, 2 * n // 3, n]
    one = [0] * n + [rows]  # every row on the last rank
    first = [0] + [rows] * n  # every row on the first rank
    empties = [0] + [rows // 2] * (n - 1) + [rows]
    big_rows = 10 ** 9
    big_old = [0] + sorted(rng.randint(0, big_rows) for _ in range(n - 1)) + [big_rows]
    big_new = [0, 1, big_rows // 2, big_rows - 1, big_rows]
    return [
        [1000, even_old, even_new],
        [7, fine, coarse],
        [7, coarse, fine],
        [3, one, first],
        [3, first, one],
        [2, empties, [0] + [rows // 2] * (n // 2) + [rows // 2 + 1] * (n // 2 - 1) + [rows]],
        [10 ** 6, big_old, big_new],
        [10 ** 6, big_new, big_old],
    ]
