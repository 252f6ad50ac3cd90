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
