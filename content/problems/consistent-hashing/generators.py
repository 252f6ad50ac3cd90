"""Seeded random hash rings: servers with virtual-node positions, and key positions that
include exact hits on nodes and keys past the last node (which must wrap around)."""

SPACE = 2**32


def rings(rng, count, servers, vnodes, keys):
    cases = []
    for _ in range(count):
        s = rng.randint(2, servers) if servers <= 10 else servers
        v = rng.randint(1, vnodes) if vnodes <= 10 else vnodes
        space = rng.choice([100, 1000, SPACE]) if keys <= 50 else SPACE
        total = min(s * v, space // 2)
        points = rng.sample(range(space), total)
        names = [f"s{i}" for i in range(s)]
        ring = {name: [] for name in names}
        for j, p in enumerate(points):  # every server gets at least one node
            ring[names[j % s] if j < s else rng.choice(names)].append(p)
        ks = [rng.randrange(space) for _ in range(keys)]
        for j in range(0, keys, 7):
            ks[j] = rng.choice(points)  # a key exactly on a virtual node
        ks[-1] = max(points) + (1 if max(points) + 1 < space else 0)  # wraps (if room)
        cases.append([ring, ks, rng.choice(names)])
    return cases
