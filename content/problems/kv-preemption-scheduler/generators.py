"""Seeded request streams for the preemption scheduler."""


def _request(rng, block_size, num_blocks, arrival, max_prompt, max_output):
    """One request whose largest footprint, ceil((P + O - 1) / B) blocks, fits the pool."""
    while True:
        prompt = rng.randint(1, max_prompt)
        output = rng.randint(1, max_output)
        if -(-(prompt + output - 1) // block_size) <= num_blocks:
            return [arrival, prompt, output]


def streams(rng, count, n, block_size, num_blocks, max_running, max_prompt, max_output, max_gap):
    """`count` random cases: arrivals `max_gap` steps apart at most, a pool small enough
    that requests are preempted."""
    cases = []
    for _ in range(count):
        arrival, requests = 0, []
        for _ in range(rng.randint(n // 2, n)):
            arrival += rng.randint(0, max_gap)
            requests.append(_request(rng, block_size, num_blocks, arrival, max_prompt, max_output))
        cases.append([block_size, num_blocks, max_running, requests])
    return cases


def thrash(rng, n, block_size, num_blocks, max_running, output):
    """Every request arrives at step 0 with a one-block prompt and a long output: they all
    fit at first, then grow past the pool together, and the newest are preempted again and
    again (each re-admission recomputes prompt + generated tokens)."""
    requests = [[0, rng.randint(1, block_size), output + rng.randint(0, 3)] for _ in range(n)]
    for r in requests:
        while -(-(r[1] + r[2] - 1) // block_size) > num_blocks:
            r[2] -= 1
    return [[block_size, num_blocks, max_running, requests]]


def many_short(rng, n, block_size, num_blocks, max_running, max_output, spread):
    """`n` short requests arriving over `spread` steps: a few thousand steps, each with at
    most `max_running` requests running, so a solution that looks at all n requests in
    every step does n times the steps of work."""
    arrivals = sorted(rng.randint(0, spread) for _ in range(n))
    return [[block_size, num_blocks, max_running,
             [[a, rng.randint(1, 3 * block_size), rng.randint(1, max_output)] for a in arrivals]]]
