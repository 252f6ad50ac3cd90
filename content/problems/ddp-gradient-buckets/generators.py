"""Seeded random models for DDP bucketing: parameter sizes in bytes, like a transformer's
mix of large weight matrices and small biases and norms, and bucket caps."""


def models(rng, count, params, cap):
    cases = []
    for _ in range(count):
        n = rng.randint(1, params) if params <= 50 else params
        c = rng.randint(1, cap) if cap <= 100 else cap
        sizes = [rng.choice([rng.randint(1, max(1, c // 8)), rng.randint(1, c),
                             rng.randint(c // 2 + 1, 2 * c + 1)]) for _ in range(n)]
        first = rng.choice([c, max(1, c // 4), rng.randint(1, c), rng.randint(c + 1, 4 * c + 1)])
        cases.append([sizes, c, first])
    return cases


def one_bucket(rng, params):
    """The largest model of 1-byte gradients under the largest caps: every parameter lands
    in one bucket (after a first bucket of first_cap bytes), so re-adding the open bucket's
    bytes for each parameter costs O(n^2)."""
    small = rng.randint(2, 50)
    return [[[1] * params, 10**9, 10**9], [[1] * params, 10**9, small],
            [[1] * params, small, 10**9]]
