# expect: wrong_answer
# Falls back to the least loaded replica when the load difference equals the threshold;
# only a difference above it is imbalanced.
import heapq
from collections import OrderedDict


def route(num_replicas: int, capacity: int, threshold: int,
          requests: list[list]) -> list[list[int]]:
    # One trie per replica over the sequences it remembers: a node is [count, children],
    # count = how many remembered sequences pass through it (nodes at 0 are removed).
    tries = [[0, {}] for _ in range(num_replicas)]
    lru = [OrderedDict() for _ in range(num_replicas)]  # tuple(tokens) -> None, oldest first
    ends: list[list[int]] = [[] for _ in range(num_replicas)]  # min-heaps of finish times
    out = []
    for now, (tokens, duration) in enumerate(requests):
        load = []
        for r in range(num_replicas):
            while ends[r] and ends[r][0] <= now:  # a request ends at start + duration
                heapq.heappop(ends[r])
            load.append(len(ends[r]))
        matched = [match_length(trie, tokens) for trie in tries]
        if max(load) - min(load) >= threshold:  # imbalanced: least loaded, lowest index
            best = min(range(num_replicas), key=lambda r: (load[r], r))
        else:  # longest match, then least loaded, then lowest index
            best = min(range(num_replicas), key=lambda r: (-matched[r], load[r], r))
        out.append([best, matched[best]])
        heapq.heappush(ends[best], now + duration)
        key = tuple(tokens)
        cache = lru[best]
        if key in cache:
            cache.move_to_end(key)  # served again: now the most recently used
            continue
        if len(cache) == capacity:
            old, _ = cache.popitem(last=False)  # evict the least recently used sequence
            remove_seq(tries[best], old)
        cache[key] = None
        insert_seq(tries[best], key)
    return out


def match_length(trie: list, tokens: list[int]) -> int:
    """Length of the longest common prefix of `tokens` with any remembered sequence."""
    node, depth = trie, 0
    for tok in tokens:
        node = node[1].get(tok)
        if node is None:
            break
        depth += 1
    return depth


def insert_seq(trie: list, seq: tuple) -> None:
    node = trie
    for tok in seq:
        child = node[1].get(tok)
        if child is None:
            child = node[1][tok] = [0, {}]
        child[0] += 1
        node = child


def remove_seq(trie: list, seq: tuple) -> None:
    node = trie
    for tok in seq:
        child = node[1][tok]
        child[0] -= 1
        if child[0] == 0:  # no other remembered sequence passes here: drop the subtree
            del node[1][tok]
            return
        node = child
