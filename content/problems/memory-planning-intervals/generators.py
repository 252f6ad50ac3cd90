"""Seeded tests for memory-planning-intervals: tensors with random lifetimes. A small time
range makes many frees and allocations share a step (the boundary rule matters); a large
one makes a walk over every time step hopeless."""


def lifetimes(rng, count, n, horizon, max_size, max_len):
    cases = []
    for _ in range(count):
        tensors = []
        for _ in range(n):
            start = rng.randint(0, horizon - 1)
            end = min(horizon, start + rng.randint(1, max_len))
            tensors.append([start, end, rng.randint(1, max_size)])
        cases.append([tensors])
    return cases


def shaped(rng, n, horizon, max_size):
    """Structured worst cases at the largest size, one test per shape:
    all_live: every tensor spans the middle step (a sweep that keeps the live tensors in a
              list and filters it at each allocation does n^2/2 steps);
    chain:    tensor i lives [i, i + 1): n frees and n allocations share a step, and the
              answer is one size;
    equal:    n identical tensors of the largest size (a total of n * max_size);
    sorted / reversed: n/10 lifetimes listed by start, ascending and descending."""
    mid = horizon // 2
    all_live = [[rng.randint(0, mid - 1), rng.randint(mid + 1, horizon), rng.randint(1, max_size)]
                for _ in range(n)]
    chain = [[i, i + 1, rng.randint(1, max_size)] for i in range(n)]
    rng.shuffle(chain)
    equal = [[0, horizon, max_size] for _ in range(n)]
    spread = []
    for _ in range(n):
        start = rng.randint(0, horizon - 1)
        spread.append([start, min(horizon, start + rng.randint(1, horizon // 100)),
                       rng.randint(1, max_size)])
    spread.sort()
    return [[all_live], [chain], [equal], [spread[: n // 10]], [spread[::-10]]]
