"""Seeded tests for causal-attention: random Q, K, V; `scale` sets the size of the scores,
and a large one makes exp(score) overflow unless the row maximum is subtracted."""


def qkv(rng, count, n, d, scale):
    cases = []
    for _ in range(count):
        q = [[round(rng.gauss(0.0, scale), 4) for _ in range(d)] for _ in range(n)]
        k = [[round(rng.gauss(0.0, scale), 4) for _ in range(d)] for _ in range(n)]
        v = [[round(rng.uniform(-10.0, 10.0), 4) for _ in range(d)] for _ in range(n)]
        cases.append([q, k, v])
    return cases
