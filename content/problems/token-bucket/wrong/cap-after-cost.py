# expect: wrong_answer
# Caps at the capacity after taking the cost (min(full, level + refill - cost)) instead of
# capping the refill first: after an idle period the first request is free.
def admit(capacity, rate, requests):
    full = capacity * 1000
    level, last = full, 0
    out = []
    for t, cost in requests:
        level += (t - last) * rate
        last = t
        if level >= cost * 1000:
            level = min(full, level - cost * 1000)
            out.append(True)
        else:
            level = min(full, level)
            out.append(False)
    return out
