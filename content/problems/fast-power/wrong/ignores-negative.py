# expect: wrong_answer
# Squares and multiplies correctly but forgets that n can be negative: 2.0, -2 gives 1.0.
def my_pow(x: float, n: int) -> float:
    result = 1.0
    while n > 0:
        if n & 1:
            result *= x
        x *= x
        n >>= 1
    return result
