"""Seeded request streams for the prefix-aware router: [tokens, duration] per request."""


def small(rng, count, n, replicas, capacity, threshold, vocab, max_len, max_duration):
    """`count` cases over a tiny vocabulary, so prefixes are shared, matched and evicted."""
    cases = []
    for _ in range(count):
        stems = [[rng.randrange(vocab) for _ in range(rng.randint(1, max_len))] for _ in range(3)]
        requests = []
        for _ in range(rng.randint(1, n)):
            if rng.random() < 0.6:
                stem = rng.choice(stems)
                tokens = stem[:rng.randint(0, len(stem))]
                tokens += [rng.randrange(vocab) for _ in range(rng.randint(0, 3))]
                tokens = tokens or [rng.randrange(vocab)]
            else:
                tokens = [rng.randrange(vocab) for _ in range(rng.randint(1, max_len))]
            requests.append([tokens, rng.randint(1, max_duration)])
        cases.append([rng.randint(1, replicas), rng.randint(1, capacity),
                      rng.randint(0, threshold), requests])
    return cases


def system_prompts(rng, n, replicas, capacity, threshold, prompts, prompt_len, suffix_len,
                   max_duration):
    """Requests that share one of a few long system prompts, each with its own short suffix:
    every replica remembers hundreds of sequences that agree on the first `prompt_len`
    tokens, so comparing the request with each remembered sequence costs about
    capacity x prompt_len per replica, while a trie walks prompt_len nodes."""
    heads = [[rng.randrange(50000) for _ in range(prompt_len)] for _ in range(prompts)]
    requests = []
    for _ in range(n):
        tokens = rng.choice(heads) + [rng.randrange(50000) for _ in range(rng.randint(1, suffix_len))]
        requests.append([tokens, rng.randint(1, max_duration)])
    return [[replicas, capacity, threshold, requests]]


def repeats(rng, n, replicas, capacity, threshold, distinct, length, max_duration):
    """A few distinct sequences served again and again: whether a re-served sequence is
    refreshed in the LRU order decides which one is evicted."""
    pool = [[rng.randrange(4) for _ in range(rng.randint(1, length))] for _ in range(distinct)]
    requests = [[list(rng.choice(pool)), rng.randint(1, max_duration)] for _ in range(n)]
    return [[replicas, capacity, threshold, requests]]


def long_requests(rng, n, replicas, capacity, threshold, length):
    """`n` requests of `length` tokens that branch off each other at random depths, so the
    matches run deep and forgetting a sequence cuts a long subtree."""
    base = [rng.randrange(1000000000) for _ in range(length)]
    requests = []
    for _ in range(n):
        cut = rng.randint(0, length)
        tokens = base[:cut] + [rng.randrange(1000000000) for _ in range(length - cut)]
        requests.append([tokens, rng.randint(1, 10)])
    return [[replicas, capacity, threshold, requests]]
