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


def long_run(rng, nodes, keys, run, servers):
    """One server, "big", owns `run` consecutive virtual nodes of `nodes` (the run crosses
    the top of the ring, 2^32 - 1 back to 0) and is removed; most keys fall inside its run.
    Walking clockwise node by node past the removed server's run is O(run) per key."""
    points = sorted(rng.sample(range(SPACE), nodes))
    names = [f"s{i}" for i in range(servers)]
    ring = {"big": [], **{name: [] for name in names}}
    start = nodes - run // 2  # the run: the last run/2 positions and the first run - run/2
    for j in range(nodes):
        inside = (j - start) % nodes < run
        ring["big" if inside else names[j % servers]].append(points[j])
    lo, hi = points[(start - 1) % nodes], points[(start + run) % nodes]  # the run's neighbours
    ks = []
    for j in range(keys):
        if j % 10 == 0:
            ks.append(rng.randrange(SPACE))  # anywhere
        elif j % 10 == 1:
            ks.append(points[(start + rng.randrange(run)) % nodes])  # exactly on a run node
        elif rng.random() < 0.5:
            ks.append(rng.randint(lo + 1, SPACE - 1))  # inside the run, before the top
        else:
            ks.append(rng.randint(0, hi))  # inside the run, after 0
    return [[ring, ks, "big"]]
