# expect: time_limit_exceeded
# Right answers, but after the removal walks clockwise node by node from the old owner past
# the removed server's nodes: O(run) per key when it owns 19,000 consecutive nodes.
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
            step = i
            while ring[step][1] == removed:  # walk clockwise past the removed server's run
                step = (step + 1) % len(ring)
            after.append(ring[step][1])
            moved.append(j)
        else:
            after.append(owner)
    return {"owners": before, "after": after, "moved": moved}
