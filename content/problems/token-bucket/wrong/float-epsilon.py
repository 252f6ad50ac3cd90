# expect: wrong_answer
# Counts tokens in floats and admits when the level is within 1e-6 of the cost, to absorb
# rounding: at a level near 10^8 each refill of rate / 1000 token rounds the same way, and
# ten thousand of them drift by about 10^-4, far beyond the tolerance.
def admit(capacity, rate, requests):
    level, last = float(capacity), 0
    out = []
    for t, cost in requests:
        level = min(float(capacity), level + (t - last) * rate / 1000)
        last = t
        if level + 1e-6 >= cost:
            level -= cost
            out.append(True)
        else:
            out.append(False)
    return out
