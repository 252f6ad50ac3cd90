"""Seeded random operator graphs: DAGs (edges go from a lower to a higher position of a
hidden random permutation, so ids are shuffled) and graphs with a planted cycle."""


def dags(rng, count, nodes, edges, cycle=False):
    cases = []
    for _ in range(count):
        n = rng.randint(1, nodes) if nodes <= 50 else nodes
        rank = list(range(n))
        rng.shuffle(rank)  # rank[i]: the operator at position i of a valid order
        m = rng.randint(0, edges) if edges <= 100 else edges
        pairs = []
        for _ in range(m if n > 1 else 0):
            i = rng.randrange(n - 1)
            j = rng.randint(i + 1, min(n - 1, i + rng.choice([1, 3, 10, n])))
            pairs.append([rank[i], rank[j]])
        if cycle and n > 1:
            i, j = sorted(rng.sample(range(n), 2))
            pairs.append([rank[i], rank[j]])
            pairs.append([rank[j], rank[i]])
        rng.shuffle(pairs)
        cases.append([n, pairs])
    return cases


def wide(rng, n, edges, cycle=False):
    """Half of the operators (at hidden random ids) are ready from the start and each feeds
    one or more of the other half, so about n/2 operators stay ready for n/2 steps: a scan
    or a sort of the ready set at every step costs ~n^2/4. With `cycle`, two operators of the
    second half feed each other: the cycle shows only after the long run."""
    rank = list(range(n))
    rng.shuffle(rank)
    half = n // 2
    pairs = [[rank[i], rank[half + i]] for i in range(half)]
    while len(pairs) < edges - (2 if cycle else 0):
        pairs.append([rank[rng.randrange(half)], rank[rng.randrange(half, n)]])
    if cycle:
        a, b = rng.sample(range(half, n), 2)
        pairs += [[rank[a], rank[b]], [rank[b], rank[a]]]
    rng.shuffle(pairs)
    return [[n, pairs]]


def shapes(rng, n):
    """A chain in decreasing ids (one operator ready at a time, n levels deep: recursion
    fails), a star from the largest id, and one edge repeated n times."""
    chain = [[v, v - 1] for v in range(n - 1, 0, -1)]
    rng.shuffle(chain)
    star = [[n - 1, v] for v in range(n - 1)]
    rng.shuffle(star)
    repeated = [[n - 1, 0]] * n
    return [[n, chain], [n, star], [n, repeated]]
