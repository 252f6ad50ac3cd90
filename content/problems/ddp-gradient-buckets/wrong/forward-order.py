# expect: wrong_answer
# Fills buckets in registration (forward) order, parameter 0 first. DDP buckets in reverse
# order because backward produces the last layers' gradients first.
def ddp_buckets(sizes: list[int], cap: int, first_cap: int) -> list[list[int]]:
    buckets, current, used = [], [], 0
    for i in range(len(sizes)):
        limit = first_cap if not buckets else cap
        if current and used + sizes[i] > limit:
            buckets.append(current)
            current, used = [], 0
        current.append(i)
        used = used + sizes[i]
    if current:
        buckets.append(current)
    return buckets
