# expect: time_limit_exceeded
# Simulates the bucket one millisecond at a time: O(t) work, hopeless when t reaches 10^12.
def admit(capacity, rate, requests):
    full = capacity * 1000
    level, now = full, 0
    out = []
    for t, cost in requests:
        while now < t:
            level = min(full, level + rate)
            now += 1
        if level >= cost * 1000:
            level -= cost * 1000
            out.append(True)
        else:
            out.append(False)
    return out
