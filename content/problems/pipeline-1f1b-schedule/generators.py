"""Seeded random pipeline shapes for the 1F1B schedule."""


def pipelines(rng, count, max_stages, max_micro):
    return [[rng.randint(1, max_stages), rng.randint(1, max_micro), rng.randint(1, 5),
             rng.randint(1, 5)] for _ in range(count)]


def grid(rng, max_stages, max_micro):
    """Every p from 1 to max_stages, each with m at the edges of the warm-up (m = 1, p - 2,
    p - 1, p, p + 1) and at max_micro, f and b at both ends of 1..5 and in between."""
    durations = [(1, 1), (5, 5), (1, 5), (5, 1), (2, 3), (4, 1)]
    cases = []
    for p in range(1, max_stages + 1):
        micro = sorted({m for m in (1, p - 2, p - 1, p, p + 1, max_micro) if 1 <= m <= max_micro})
        for k, m in enumerate(micro):
            f, b = durations[(p + k) % len(durations)]
            if rng.random() < 0.2:
                f, b = rng.randint(1, 5), rng.randint(1, 5)
            cases.append([p, m, f, b])
    return cases
