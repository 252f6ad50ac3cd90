# expect: wrong_answer
# Adds the parameter first and closes the bucket only once it has gone past the cap, so a
# bucket can hold more bytes than the cap allows (this problem's rule closes the bucket
# before a parameter that would not fit).
def ddp_buckets(sizes: list[int], cap: int, first_cap: int) -> list[list[int]]:
    buckets, current, used = [], [], 0
    for i in range(len(sizes) - 1, -1, -1):
        current.append(i)
        used = used + sizes[i]
        if used > (first_cap if not buckets else cap):
            buckets.append(current)
            current, used = [], 0
    if current:
        buckets.append(current)
    return buckets
