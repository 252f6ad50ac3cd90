# expect: wrong_answer
# A put that updates an existing key changes the value but leaves the key where it was in
# the recency order, so it can be evicted right after being written.
from collections import OrderedDict


def run_lru(capacity: int, ops: list[list]) -> list[int]:
    cache, out = OrderedDict(), []
    for op in ops:
        key = op[1]
        if op[0] == "get":
            if key in cache:
                cache.move_to_end(key)
                out.append(cache[key])
            else:
                out.append(-1)
        else:
            if key not in cache and len(cache) == capacity:
                cache.popitem(last=False)
            cache[key] = op[2]
    return out
