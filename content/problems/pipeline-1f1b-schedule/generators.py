"""Seeded random pipeline shapes for the 1F1B schedule."""


def pipelines(rng, count, max_stages, max_micro):
    return [[rng.randint(1, max_stages), rng.randint(1, max_micro), rng.randint(1, 5),
             rng.randint(1, 5)] for _ in range(count)]
