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


def _safe_p(rng, logits, temperature, k, low=0.05, high=0.99):
    top = max(logits)
    probs = [math.exp((x - top) / temperature) for x in logits]
    order = sorted(range(len(logits)), key=lambda i: (-probs[i], i))[:k]
    total = math.fsum(probs[i] for i in order)
    cum, sums = 0.0, []
    for i in order:
        cum += probs[i] / total
        sums.append(cum)
    while True:
        p = round(rng.uniform(low, high), 4)
        if all(abs(s - p) > 1e-6 for s in sums):
            return p


def tie_cuts(rng, count, size):
    """Long vocabularies whose logits take a few values only, thousands of tokens each, with
    the top-k cut and the top-p cut both falling inside a group of tied tokens: only a stable
    descending order (smaller index first among equals) keeps the right ones. An unstable
    sort or an argpartition keeps an arbitrary subset of the tied group."""
    cases = []
    for n in range(count):
        levels = sorted({round(rng.uniform(-2.0, 2.0), 1) for _ in range(5)}, reverse=True)
        logits = [rng.choice(levels) for _ in range(size)]
        temperature = rng.choice([0.7, 1.0, 2.0])
        order = _order(logits, temperature)
        k = _inside_a_group(rng, logits, order) if n % 3 != 2 else size + rng.randint(0, 5)
        p = 1.0 if n % 3 == 1 else _p_inside_a_group(rng, logits, temperature, order[:k])
        cases.append([logits, temperature, k, p])
    return cases


def flat(rng, count, size):
    """The largest vocabulary nearly flat (temperature 10 over a small spread, or all equal):
    top-p keeps tens of thousands of tokens, and searching the kept list once per token is
    quadratic."""
    cases = []
    for n in range(count):
        if n == 0:
            logits = [0.0] * size
        else:
            logits = [round(rng.uniform(-1.0, 1.0), 3) for _ in range(size)]
        temperature = 10.0 if n else 1.0
        k = size if n % 2 == 0 else size - rng.randint(1, 100)
        if n == 0:  # every cumulative sum is a multiple of 1 / size: p falls between two
            p = round(rng.randint(int(0.97 * size), int(0.995 * size)) / size + 0.5 / size, 9)
        else:
            p = _safe_p(rng, logits, temperature, k, low=0.97, high=0.995)
        cases.append([logits, temperature, k, p])
    return cases


def hot(rng, count, size):
    """Logits near +100 with a small spread at temperature 0.05: logits / T is near 2000,
    so float32 (ulp 1.2e-4 there) puts each probability off by about 1e-4 relative."""
    cases = []
    for _ in range(count):
        logits = [round(100.0 - rng.uniform(0.0, 0.4), 7) for _ in range(size)]
        temperature = 0.05
        k = rng.choice([size, size // 2])
        p = _safe_p(rng, logits, temperature, k, low=0.9, high=0.999)
        cases.append([logits, temperature, k, p])
    return cases


def _order(logits, temperature):
    top = max(logits)
    probs = [math.exp((x - top) / temperature) for x in logits]
    return sorted(range(len(logits)), key=lambda i: (-probs[i], i))


def _inside_a_group(rng, logits, order):
    """A k whose cut splits a group of tied tokens roughly in half."""
    while True:
        k = rng.randint(1, len(order) - 1)
        value = logits[order[k - 1]]
        if logits[order[k]] == value and k > 1 and logits[order[k - 2]] == value:
            return k


def _p_inside_a_group(rng, logits, temperature, kept):
    """A p that is crossed by a token tied with its neighbours on both sides, no cumulative
    sum within 1e-6 of it."""
    top = max(logits)
    probs = [math.exp((logits[i] - top) / temperature) for i in kept]
    total = math.fsum(probs)
    sums, cum = [], 0.0
    for q in probs:
        cum += q / total
        sums.append(cum)
    while True:
        j = rng.randint(1, len(kept) - 2)
        same = logits[kept[j - 1]] == logits[kept[j]] == logits[kept[j + 1]]
        if same and 0.05 < sums[j] < 0.999:
            p = round((sums[j - 1] + sums[j]) / 2, 9)
            if sums[j - 1] + 1e-6 < p < sums[j] - 1e-6:
                return p
