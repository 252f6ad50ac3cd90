"""Seeded router logits for top-1 MoE dispatch: some experts are favoured (so they
overflow), and some logits are rounded so that rows have exact ties."""


def router_logits(rng, count, tokens, experts):
    cases = []
    for _ in range(count):
        t = rng.randint(1, tokens) if tokens <= 64 else tokens
        e = rng.randint(1, experts) if experts <= 8 else experts
        bias = [rng.gauss(0.0, 1.0) for _ in range(e)]
        coarse = rng.random() < 0.4  # one decimal: ties become likely
        rows = []
        for _ in range(t):
            row = [bias[j] + rng.gauss(0.0, 1.0) for j in range(e)]
            rows.append([round(x, 1) if coarse else round(x, 6) for x in row])
        factor = rng.choice([0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0])
        cases.append([rows, factor])
    return cases


def bounds(rng):
    """Structured cases at the bounds. Logits near 1e9 that differ by less than float32's
    spacing there (64), and near 0.1 by 1e-9: float32 turns them into ties. Every token on
    one expert with C = floor(1.75 * 244 / 7) = 61, where 1.75 * (244 / 7) rounds to
    60.99999999999999. One expert (E = 1), sixteen, a single token (C = 0)."""
    T, E = 3000, 16
    huge = [[1e9 - rng.randint(0, 31) for _ in range(E)] for _ in range(T)]
    small = [[round(0.1 + rng.randint(0, 20) * 1e-9, 12) for _ in range(E)] for _ in range(T)]
    tied = [[0.5] * 7 for _ in range(244)]
    one = [[round(rng.uniform(-1e9, 1e9), 1)] for _ in range(T)]
    mixed = [[rng.choice([-1e9, 1e9, 0.0]) for _ in range(E)] for _ in range(T)]
    return [[huge, 2.0], [small, 1.25], [tied, 1.75], [[[0.0] * 14 for _ in range(488)], 1.75],
            [one, 0.25], [one, 2.0], [mixed, 0.25], [[[3.0] * E], 2.0]]
