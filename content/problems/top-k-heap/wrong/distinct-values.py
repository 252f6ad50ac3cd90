# expect: wrong_answer
# Skips values already in the heap, returning the k largest distinct values; duplicates
# count separately ([5, 5, 4, 5, 1], k = 2 is [5, 5], not [5, 4]).
import heapq


def top_k(nums, k):
    heap, seen = [], set()
    for x in nums:
        if x in seen:
            continue
        if len(heap) < k:
            heapq.heappush(heap, x)
            seen.add(x)
        elif k and x > heap[0]:
            seen.discard(heapq.heapreplace(heap, x))
            seen.add(x)
    return sorted(heap, reverse=True)
