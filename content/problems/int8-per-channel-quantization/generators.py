"""Seeded tests for int8-per-channel-quantization: weight matrices whose rows differ in
magnitude by orders (as real output channels do, with a few outlier rows), drawn so that
no w / scale lies within 1e-6 of a .5 rounding boundary: the statement promises that ties
only occur where they are exact."""

import math


def weights(rng, count, m, n):
    cases = []
    for _ in range(count):
        rows = []
        for _ in range(m):
            spread = 10 ** rng.uniform(-3, 1)
            if rng.random() < 0.05:
                spread *= 50  # an outlier channel
            rows.append(_row(rng, n, spread))
        cases.append([rows])
    return cases


def _row(rng, n, spread):
    while True:
        row = [rng.gauss(0.0, spread) for _ in range(n)]
        scale = max(abs(x) for x in row) / 127
        if all(abs(abs(x / scale) - math.floor(abs(x / scale)) - 0.5) > 1e-6 for x in row):
            return row


def near_half(rng, m, n):
    """Rows whose values sit on .5 rounding boundaries, as the statement computes them:
    exact ties (w / s == k + 0.5 in float64, with s = max / 127) and near misses 2e-6 to
    3e-5 away, outside the promised 1e-6. Multiplying by 127 / max instead of dividing by
    s moves some exact ties off the boundary, and float32 moves the near misses across it."""
    rows = []
    for _ in range(m):
        top = float(f"{10 ** rng.uniform(-3, 4):.6g}")
        scale = top / 127
        row = [rng.choice([-1.0, 1.0]) * top]
        while len(row) < n:
            k = rng.randint(-127, 126)
            tie = k + 0.5
            delta = rng.choice([0.0, 0.0, 0.0, 2e-6, -2e-6, 4e-6, -4e-6, 8e-6, -8e-6, 3e-5])
            w = (tie + delta) * scale
            if abs(w) > top:
                continue
            off = abs(w / scale - tie)
            if (delta == 0.0 and off == 0.0) or (delta != 0.0 and off > 1e-6):
                row.append(w)
        rng.shuffle(row)
        rows.append(row)
    return [[rows]]
