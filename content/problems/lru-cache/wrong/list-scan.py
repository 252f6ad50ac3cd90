# expect: time_limit_exceeded
# Right answers, but recency is a Python list: list.remove and list.pop(0) scan or shift
# the whole list, O(capacity) per operation, and the large test keeps 50,000 keys
# in a full cache and then uses them 50,000 times.
def run_lru(capacity: int, ops: list[list]) -> list[int]:
    values, order, out = {}, [], []
    for op in ops:
        key = op[1]
        if op[0] == "get":
            if key in values:
                order.remove(key)
                order.append(key)
                out.append(values[key])
            else:
                out.append(-1)
        else:
            if key in values:
                order.remove(key)
            elif len(values) == capacity:
                del values[order.pop(0)]
            order.append(key)
            values[key] = op[2]
    return out
