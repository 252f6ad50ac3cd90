# expect: time_limit_exceeded
# Right, but keeps the open bucket's sizes in a list and sums the list for every parameter:
# O(n x bucket length) at C speed, still quadratic.
def ddp_buckets(sizes: list[int], cap: int, first_cap: int) -> list[list[int]]:
    buckets, current, held = [], [], []
    for i in range(len(sizes) - 1, -1, -1):
        limit = first_cap if not buckets else cap
        if current and sum(held) + sizes[i] > limit:
            buckets.append(current)
            current, held = [], []
        current.append(i)
        held.append(sizes[i])
    if current:
        buckets.append(current)
    return buckets
