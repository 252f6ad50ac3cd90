"""Seeded tests for top-k-heap: long streams of integers; a narrow value range makes many
duplicates, a rising trend makes the heap's minimum change often."""


def stream(rng, count, n, k, low, high, trend=0):
    cases = []
    for _ in range(count):
        nums = [rng.randint(low, high) + trend * i for i in range(n)]
        cases.append([nums, k])
    return cases
