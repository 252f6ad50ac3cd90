"""Seeded tests for layernorm-rmsnorm: random activations with a per-row offset and scale,
so some rows have a large mean and some a tiny spread (where eps matters)."""


def rows(rng, count, m, n):
    cases = []
    for i in range(count):
        kind = "layer" if i % 2 == 0 else "rms"
        x = []
        for _ in range(m):
            offset = rng.uniform(-5.0, 5.0)
            spread = rng.choice([1e-3, 0.1, 1.0, 10.0])
            x.append([round(offset + rng.gauss(0.0, spread), 6) for _ in range(n)])
        gamma = [round(rng.uniform(0.5, 1.5), 4) for _ in range(n)]
        beta = [round(rng.uniform(-0.5, 0.5), 4) for _ in range(n)]
        eps = rng.choice([1e-5, 1e-6, 1e-3])
        cases.append([x, gamma, beta, kind, eps])
    return cases


def extremes(rng):
    """The bounds together: 200 x 512 rows near +-1000 with a spread of 1e-3 to 5e-2 and
    eps = 0 (E[x^2] - E[x]^2 cancels catastrophically there, float32 cannot hold the
    spread), the full +-1000 range with eps = 1 and constant rows, eps dominating tiny
    rows, and n = 1."""
    m, n = 200, 512

    def near_bound():
        rows = []
        for _ in range(m):
            centre = rng.choice([1.0, -1.0]) * rng.choice([999.9, 950.0, 500.0])
            spread = rng.choice([1e-3, 1e-2, 5e-2])
            rows.append([round(centre + rng.uniform(-spread, spread), 6) for _ in range(n)])
        return rows

    def wide():
        rows = []
        for i in range(m // 4):
            if i % 10 == 0:
                rows.append([rng.choice([-1000.0, 1000.0, 0.0])] * n)
            else:
                rows.append([round(rng.uniform(-1000.0, 1000.0), 3) for _ in range(n)])
        return rows

    def params(size):
        return ([round(rng.uniform(-2.0, 2.0), 4) for _ in range(size)],
                [round(rng.uniform(-1.0, 1.0), 4) for _ in range(size)])

    gamma, beta = params(n)
    x = near_bound()
    tiny = [[round(rng.uniform(-1e-3, 1e-3), 7) for _ in range(n)]]
    column = [[round(rng.uniform(-1000.0, 1000.0), 3)] for _ in range(m)]
    return [[x, gamma, beta, "layer", 0.0], [x, gamma, beta, "rms", 0.0],
            [wide(), gamma, beta, "layer", 1.0], [wide(), gamma, beta, "rms", 1.0],
            [tiny, gamma, beta, "layer", 1.0], [tiny, gamma, beta, "rms", 1.0],
            [column, *params(1), "layer", 1.0], [column, *params(1), "rms", 0.0]]
