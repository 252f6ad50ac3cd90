# expect: wrong_answer
# A get returns the value but does not mark the key as recently used, so the cache evicts
# by insertion order (FIFO), not by use.
from collections import OrderedDict


def run_lru(capacity: int, ops: list[list]) -> list[int]:
    cache, out = OrderedDict(), []
    for op in ops:
        key = op[1]
        if op[0] == "get":
            out.append(cache.get(key, -1))
        else:
            if key in cache:
                cache.move_to_end(key)
            elif len(cache) == capacity:
                cache.popitem(last=False)
            cache[key] = op[2]
    return out
