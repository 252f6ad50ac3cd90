# expect: time_limit_exceeded
# Multiplies |n| times: right answers, but O(|n|) work, and n reaches 2**31.
def my_pow(x: float, n: int) -> float:
    if n < 0:
        x, n = 1 / x, -n
    result = 1.0
    for _ in range(n):
        result *= x
    return result
