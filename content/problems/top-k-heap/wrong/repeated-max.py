# expect: time_limit_exceeded
# Selects k times: take the maximum of what is left, remove it, repeat. Right answers, but
# O(n·k): 10,000 passes over a 60,000-long stream.
def top_k(nums, k):
    rest = list(nums)
    out = []
    for _ in range(k):
        best = max(rest)
        rest.remove(best)
        out.append(best)
    return out
