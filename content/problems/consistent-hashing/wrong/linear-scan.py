# expect: time_limit_exceeded
# Right answers, but scans every virtual node for every key: O(keys x nodes), and the
# large test has 20,000 nodes and 30,000 keys.
def consistent_hash(servers: dict, keys: list[int], removed: str) -> dict:
    def owners_of(names):
        ring = [(p, name) for name in names for p in servers[name]]
        first = min(ring)
        out = []
        for k in keys:
            best = None
            for node in ring:
                if node[0] >= k and (best is None or node[0] < best[0]):
                    best = node
            out.append((best or first)[1])
        return out

    before = owners_of(list(servers))
    after = owners_of([name for name in servers if name != removed])
    return {"owners": before, "after": after,
            "moved": [i for i in range(len(keys)) if before[i] != after[i]]}
