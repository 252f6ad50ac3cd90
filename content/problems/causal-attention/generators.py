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


def extremes(rng):
    """Structured cases at the bounds: |q|, |k| = 200 with d = 64 put the scores near
    ±3.2e5. Rows whose visible scores are all far below -1e4 (a -1e4 or -1e5 mask instead
    of -inf then outweighs them), scores near 1.8e5 that differ by about 1 (float32 has an
    ulp of 0.016 there), d = 1 and n = 1, and v at ±100."""
    n, d = 200, 64
    jitter = [[round(rng.uniform(-0.002, 0.002), 4) for _ in range(d)] for _ in range(n)]
    sign = [rng.choice([-1.0, 1.0]) for _ in range(n)]
    v = [[rng.choice([-100.0, 100.0, round(rng.uniform(-100.0, 100.0), 3)]) for _ in range(d)]
         for _ in range(n)]
    negative = [[[-200.0] * d for _ in range(n)],
                [[200.0 + e for e in row] for row in jitter], v]
    signs = [[[s * 200.0 for _ in range(d)] for s in sign],
             [[200.0 - abs(e) for e in row] for row in jitter], v]
    q = [[round(150.0 + rng.uniform(-0.01, 0.01), 4) for _ in range(d)] for _ in range(n)]
    k = [[round(150.0 + rng.uniform(-0.01, 0.01), 4) for _ in range(d)] for _ in range(n)]
    close = [q, k, v]
    line = [[[rng.choice([-200.0, 200.0])] for _ in range(n)],
            [[rng.choice([-200.0, 200.0, round(rng.uniform(-200.0, 200.0), 2)])] for _ in range(n)],
            [[round(rng.uniform(-100.0, 100.0), 3)] for _ in range(n)]]
    single = [[[-200.0] * d], [[200.0] * d], [[100.0] * d]]
    return [negative, signs, close, line, single]
