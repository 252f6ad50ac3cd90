# expect: time_limit_exceeded
# Keeps each replica's remembered sequences in an LRU list and compares the request with
# every one of them: O(capacity x prompt length) per replica per request, where a trie
# walks the prompt once.
import heapq
from collections import OrderedDict


def route(num_replicas, capacity, threshold, requests):
    lru = [OrderedDict() for _ in range(num_replicas)]
    ends = [[] for _ in range(num_replicas)]
    out = []
    for now, (tokens, duration) in enumerate(requests):
        load = []
        for r in range(num_replicas):
            while ends[r] and ends[r][0] <= now:
                heapq.heappop(ends[r])
            load.append(len(ends[r]))
        matched = []
        for r in range(num_replicas):
            best = 0
            for seq in lru[r]:
                n = 0
                while n < len(seq) and n < len(tokens) and seq[n] == tokens[n]:
                    n += 1
                best = max(best, n)
            matched.append(best)
        if max(load) - min(load) > threshold:
            pick = min(range(num_replicas), key=lambda r: (load[r], r))
        else:
            pick = min(range(num_replicas), key=lambda r: (-matched[r], load[r], r))
        out.append([pick, matched[pick]])
        heapq.heappush(ends[pick], now + duration)
        key = tuple(tokens)
        if key in lru[pick]:
            lru[pick].move_to_end(key)
            continue
        if len(lru[pick]) == capacity:
            lru[pick].popitem(last=False)
        lru[pick][key] = None
    return out
