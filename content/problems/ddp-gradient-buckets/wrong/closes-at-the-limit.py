# expect: wrong_answer
# Closes the bucket when it would reach the limit exactly ("bytes + size >= limit"): a
# bucket of exactly cap bytes is allowed.
def ddp_buckets(sizes: list[int], cap: int, first_cap: int) -> list[list[int]]:
    buckets, current, used = [], [], 0
    for i in range(len(sizes) - 1, -1, -1):
        limit = first_cap if not buckets else cap
        if current and used + sizes[i] >= limit:
            buckets.append(current)
            current, used = [], 0
        current.append(i)
        used = used + sizes[i]
    if current:
        buckets.append(current)
    return buckets
