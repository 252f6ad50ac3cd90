# expect: wrong_answer
# Looks for the first virtual node strictly after the key (bisect_right, ">" instead of
# ">="): a key that hashes exactly onto a node goes to the next node instead.
from bisect import bisect_right


def consistent_hash(servers: dict, keys: list[int], removed: str) -> dict:
    def owners_of(names):
        ring = sorted((p, name) for name in names for p in servers[name])
        points = [p for p, _ in ring]
        return [ring[bisect_right(points, k) % len(points)][1] for k in keys]

    before = owners_of(list(servers))
    after = owners_of([name for name in servers if name != removed])
    return {"owners": before, "after": after,
            "moved": [i for i in range(len(keys)) if before[i] != after[i]]}
