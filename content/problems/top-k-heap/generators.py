"""Seeded tests for top-k-heap: long streams of integers; a narrow value range makes many
duplicates, a rising trend makes the heap's minimum change often."""


def stream(rng, count, n, k, low, high, trend=0):
    cases = []
    for _ in range(count):
        nums = [rng.randint(low, high) + trend * i for i in range(n)]
        cases.append([nums, k])
    return cases


def shaped(rng, n, k, bound, small):
    """Structured streams, values up to +-bound: ascending, n/2 long (every number enters
    the heap), and k = n at the largest size; then, `small` long: descending
    (none enters after the first k), all equal to the bound, and values one apart at both
    bounds (float32 cannot tell 2e9 from 2e9 - 1)."""
    rising = sorted(rng.randint(-bound, bound) for _ in range(n // 2))
    wide = [rng.randint(-bound, bound) for _ in range(n)]
    m = small * k // n
    falling = sorted((rng.randint(-bound, bound) for _ in range(small)), reverse=True)
    near = [rng.choice((bound, bound - 1, -bound, 1 - bound)) for _ in range(small)]
    return [[rising, k], [wide, n], [falling, m], [[bound] * small, m], [near, m]]
