# expect: wrong_answer
# Counts tokens in floats, adding (t - last) * rate / 1000 at each request: 0.1 token ten
# times adds up to 0.9999999999999999, and a request for exactly the tokens in the bucket
# is rejected. The statement asks for exact arithmetic (milli-tokens as integers).
def admit(capacity, rate, requests):
    level, last = float(capacity), 0
    out = []
    for t, cost in requests:
        level = min(float(capacity), level + (t - last) * rate / 1000)
        last = t
        if level >= cost:
            level -= cost
            out.append(True)
        else:
            out.append(False)
    return out
