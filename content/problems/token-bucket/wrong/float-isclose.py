# expect: wrong_answer
# Counts tokens in floats and admits when math.isclose(level, cost): a relative tolerance of
# 1e-9 is a whole token at a level of 10^9, so a request a milli-token (or a token) short is
# admitted.
import math


def admit(capacity, rate, requests):
    level, last = float(capacity), 0
    out = []
    for t, cost in requests:
        level = min(float(capacity), level + (t - last) * rate / 1000)
        last = t
        if level >= cost or math.isclose(level, cost):
            level -= cost
            out.append(True)
        else:
            out.append(False)
    return out
