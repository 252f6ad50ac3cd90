# expect: wrong_answer
# Computes the refill inside the "admitted" branch but moves the clock on every request:
# the time elapsed before a rejected request is never credited, so tokens are lost.
def admit(capacity, rate, requests):
    full = capacity * 1000
    level, last = full, 0
    out = []
    for t, cost in requests:
        gained = (t - last) * rate
        last = t
        if min(full, level + gained) >= cost * 1000:
            level = min(full, level + gained) - cost * 1000
            out.append(True)
        else:
            out.append(False)
    return out
