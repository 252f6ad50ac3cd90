# expect: wrong_answer
# Takes min(first_cap, cap) as the first bucket's limit, as if the first bucket could only
# be smaller than the others: when first_cap > cap the first bucket closes too early.
def ddp_buckets(sizes: list[int], cap: int, first_cap: int) -> list[list[int]]:
    buckets, current, used = [], [], 0
    for i in range(len(sizes) - 1, -1, -1):
        limit = min(first_cap, cap) if not buckets else cap
        if current and used + sizes[i] > limit:
            buckets.append(current)
            current, used = [], 0
        current.append(i)
        used = used + sizes[i]
    if current:
        buckets.append(current)
    return buckets
