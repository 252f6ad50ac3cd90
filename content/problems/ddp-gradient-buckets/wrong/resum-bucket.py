# expect: time_limit_exceeded
# Right, but adds up the open bucket's bytes again for every parameter: O(n x bucket
# length), quadratic when a large cap holds thousands of small gradients.
def ddp_buckets(sizes: list[int], cap: int, first_cap: int) -> list[list[int]]:
    buckets, current = [], []
    for i in range(len(sizes) - 1, -1, -1):
        limit = first_cap if not buckets else cap
        if current and sum(sizes[j] for j in current) + sizes[i] > limit:
            buckets.append(current)
            current = []
        current.append(i)
    if current:
        buckets.append(current)
    return buckets
