# expect: wrong_answer
# Adds the refill without capping it at the capacity: after a long idle period the bucket
# holds more than `capacity` tokens and admits a burst larger than the limit allows.
def admit(capacity, rate, requests):
    level, last = capacity * 1000, 0
    out = []
    for t, cost in requests:
        level += (t - last) * rate
        last = t
        if level >= cost * 1000:
            level -= cost * 1000
            out.append(True)
        else:
            out.append(False)
    return out
