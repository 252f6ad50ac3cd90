"""Seeded tests for top-k-top-p-filter: vocabularies of random logits (rounded, so some tie),
with k and p drawn so that no cumulative probability lies within 1e-6 of p: the statement
promises that the inclusive boundary is never decided by rounding."""

import math


def vocab(rng, count, size, ties):
    cases = []
    for _ in range(count):
        step = 0.5 if ties else 1e-4
        logits = [round(rng.gauss(0.0, 3.0) / step) * step for _ in range(size)]
        temperature = rng.choice([0.3, 0.7, 1.0, 1.5])
        k = rng.choice([1, 5, 50, size // 3, size, size + 10])
        p = _safe_p(rng, logits, temperature, k)
        cases.append([logits, temperature, k, p])
    return cases


def _safe_p(rng, logits, temperature, k):
    top = max(logits)
    probs = [math.exp((x - top) / temperature) for x in logits]
    order = sorted(range(len(logits)), key=lambda i: (-probs[i], i))[:k]
    total = math.fsum(probs[i] for i in order)
    cum, sums = 0.0, []
    for i in order:
        cum += probs[i] / total
        sums.append(cum)
    while True:
        p = round(rng.uniform(0.05, 0.99), 4)
        if all(abs(s - p) > 1e-6 for s in sums):
            return p
