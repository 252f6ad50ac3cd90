# expect: wrong_answer
# Never wraps around: a key past the last virtual node is given to the last node (the
# index is clamped) instead of the first node clockwise, at the start of the ring.
from bisect import bisect_left


def consistent_hash(servers: dict, keys: list[int], removed: str) -> dict:
    def owners_of(names):
        ring = sorted((p, name) for name in names for p in servers[name])
        points = [p for p, _ in ring]
        return [ring[min(bisect_left(points, k), len(points) - 1)][1] for k in keys]

    before = owners_of(list(servers))
    after = owners_of([name for name in servers if name != removed])
    return {"owners": before, "after": after,
            "moved": [i for i in range(len(keys)) if before[i] != after[i]]}
