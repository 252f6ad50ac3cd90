"""Seeded tests for token-bucket: bursts of requests at the same millisecond, short gaps
that refill a fraction of a token, and long idle periods that would overfill the bucket."""


def traffic(rng, count, n, capacity, rate, max_cost):
    cases = []
    for _ in range(count):
        t, requests = 0, []
        for _ in range(n):
            t += rng.choice([0, 0, rng.randint(1, 999), rng.randint(1000, 5000),
                             rng.randint(10000, 100000)])
            requests.append([t, rng.randint(1, max_cost)])
        cases.append([capacity, rate, requests])
    return cases


def drift(rng, n, capacity, rate, start_cost):
    """A large bucket refilled one millisecond at a time and probed by requests it cannot
    afford: rate / 1000 of a token added ten thousand times to a level near 10^8..10^9
    drifts by about 10^-4 in floating point. Then a request one milli-token short of the
    level (rejected), and one for exactly the level, a whole number of tokens (admitted)."""
    requests = [[0, start_cost]]
    level = (capacity - start_cost) * 1000
    for t in range(1, n - 2):
        requests.append([t, capacity])  # more than the level: rejected, takes nothing
    t = n - 3
    for want in (999, 0):  # the level's milli-tokens beyond its whole tokens
        t += 1
        while (level + t * rate) % 1000 != want:
            t += 1
        whole = (level + t * rate) // 1000
        requests.append([t, whole + 1 if want else whole])
    return [[capacity, rate, requests]]


def ties(rng, count, n, capacity, rates):
    """Traffic whose costs sit on the level: exactly the tokens in the bucket (admitted),
    one more than its whole tokens (rejected by a milli-token or more), or a random cost;
    the exact level is followed here in milli-tokens, as the statement defines it."""
    cases = []
    for i in range(count):
        rate = rates[i % len(rates)]
        full = capacity * 1000
        level, last, t, requests = full, 0, 0, []
        for _ in range(n):
            t += rng.choice([0, 1, 1, rng.randint(1, 999), rng.randint(1000, 3000)])
            level = min(full, level + (t - last) * rate)
            last = t
            kind = rng.random()
            if kind < 0.4 and level >= 1000:
                cost = level // 1000  # the whole tokens there: admitted
            elif kind < 0.7:
                cost = level // 1000 + 1  # short by a fraction of a token: rejected
            else:
                cost = rng.randint(1, max(1, min(capacity, level // 1000) // 2 + 1))
            if level >= cost * 1000:
                level -= cost * 1000
            requests.append([t, cost])
        cases.append([capacity, rate, requests])
    return cases
