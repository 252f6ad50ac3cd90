"""Seeded tests for stable-softmax at the bounds of the statement."""


def bounds(rng):
    """200 x 200 logits near +-10^4 that differ by a few units (float32 spaces numbers
    0.001 apart there, so its softmax is off by about 1e-3), rows of equal logits at both
    bounds, rows mixing -10^4 and 10^4, and the 1 x 200 and 200 x 1 shapes."""
    size = 200
    rows = []
    for i in range(size):
        kind = i % 4
        if kind == 0:
            rows.append([round(10000.0 - rng.uniform(0.0, 5.0), 4) for _ in range(size)])
        elif kind == 1:
            rows.append([round(-10000.0 + rng.uniform(0.0, 5.0), 4) for _ in range(size)])
        elif kind == 2:
            rows.append([rng.choice([-10000.0, 10000.0]) for _ in range(size)])
        else:
            rows.append([rng.choice([-10000.0, 10000.0])] * size)
    wide = [[round(rng.uniform(-10000.0, 10000.0), 3) for _ in range(size)]]
    tall = [[round(rng.uniform(-10000.0, 10000.0), 3)] for _ in range(size)]
    return [[rows], [wide], [tall]]
