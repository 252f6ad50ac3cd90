# expect: wrong_answer
# Uses the same cap for every bucket: the first bucket should use first_cap, the small
# bucket DDP keeps so that the first all-reduce can start early.
def ddp_buckets(sizes: list[int], cap: int, first_cap: int) -> list[list[int]]:
    buckets, current, used = [], [], 0
    for i in range(len(sizes) - 1, -1, -1):
        if current and used + sizes[i] > cap:
            buckets.append(current)
            current, used = [], 0
        current.append(i)
        used = used + sizes[i]
    if current:
        buckets.append(current)
    return buckets
