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
