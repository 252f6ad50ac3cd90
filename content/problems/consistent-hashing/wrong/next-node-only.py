# expect: wrong_answer
# Gives a removed server's key to the next virtual node clockwise, which may belong to the
# removed server too when it owns consecutive nodes.
from bisect import bisect_left


def consistent_hash(servers, keys, removed):
    ring = sorted((p, name) for name in servers for p in servers[name])
    points = [p for p, _ in ring]
    before, after, moved = [], [], []
    for j, k in enumerate(keys):
        i = bisect_left(points, k) % len(points)
        owner = ring[i][1]
        before.append(owner)
        if owner == removed:
            nxt = ring[(i + 1) % len(ring)][1]  # its keys go to the next node clockwise
            after.append(nxt)
            moved.append(j)
        else:
            after.append(owner)
    return {"owners": before, "after": after, "moved": moved}
