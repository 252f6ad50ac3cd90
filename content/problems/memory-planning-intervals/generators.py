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
