# expect: wrong_answer
# Keeps the right k numbers in a min-heap but returns them in ascending order (the order
# sorted() gives without reverse=True); the answer must be largest first.
import heapq


def top_k(nums, k):
    if k == 0:
        return []
    heap = list(nums[:k])
    heapq.heapify(heap)
    for x in nums[k:]:
        if x > heap[0]:
            heapq.heapreplace(heap, x)
    return sorted(heap)
