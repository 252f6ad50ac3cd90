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
