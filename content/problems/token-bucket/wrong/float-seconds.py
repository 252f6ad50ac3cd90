# expect: wrong_answer
# Keeps the clock in float seconds (t / 1000) and the level in float tokens: the elapsed time
# between two requests is rounded, so a request for exactly the tokens there is rejected.
def admit(capacity, rate, requests):
    level, last = float(capacity), 0.0
    out = []
    for t, cost in requests:
        now = t / 1000
        level = min(float(capacity), level + (now - last) * rate)
        last = now
        if level >= cost:
            level -= cost
            out.append(True)
        else:
            out.append(False)
    return out
