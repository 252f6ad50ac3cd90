"""Seeded weight matrices for 2:4 pruning: shapes with n a multiple of 16."""


def weights(rng, count, m, n, levels):
    """`count` m x n matrices of values drawn from `levels` distinct magnitudes with random
    signs: few levels make many ties in magnitude (and x against -x)."""
    mags = [round(rng.uniform(0, 100), 3) for _ in range(levels)]
    return [[[[rng.choice((-1, 1)) * rng.choice(mags) for _ in range(n)] for _ in range(m)]]
            for _ in range(count)]


def gaussian(rng, count, m, n):
    """`count` m x n matrices of Gaussian weights, like a trained layer: no ties."""
    return [[[[rng.gauss(0, 0.02) for _ in range(n)] for _ in range(m)]] for _ in range(count)]


def structured(rng, m, n):
    """Rows that are sorted up, sorted down, all equal, all zero, alternating in sign, and
    with the two largest magnitudes at every pair of positions in each group of 4, so every
    metadata nibble and every word with its top bit set occurs."""
    pairs = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    rows = []
    for r in range(m):
        kind = r % 6
        if kind == 0:
            row = [float(j) for j in range(n)]
        elif kind == 1:
            row = [float(n - j) for j in range(n)]
        elif kind == 2:
            row = [7.5] * n
        elif kind == 3:
            row = [0.0] * n
        elif kind == 4:
            row = [(-1.0) ** j * (j % 4) for j in range(n)]
        else:
            row = []
            for g in range(n // 4):
                a, b = pairs[(g + r) % len(pairs)]
                group = [rng.uniform(0, 1) for _ in range(4)]
                group[a], group[b] = -rng.uniform(2, 3), rng.uniform(2, 3)
                row += group
        rows.append(row)
    return [[rows]]
