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
