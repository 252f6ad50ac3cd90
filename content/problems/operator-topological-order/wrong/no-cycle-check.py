# expect: wrong_answer
# Kahn's algorithm with a heap, but returns whatever it managed to order: with a cycle the
# operators on it never become ready, and the answer must be [] instead of a partial order.
import heapq


def topo_order(n: int, edges: list[list[int]]) -> list[int]:
    users, indegree = [[] for _ in range(n)], [0] * n
    for u, v in edges:
        users[u].append(v)
        indegree[v] = indegree[v] + 1
    ready = [v for v in range(n) if indegree[v] == 0]
    order = []
    while ready:
        u = heapq.heappop(ready)
        order.append(u)
        for v in users[u]:
            indegree[v] = indegree[v] - 1
            if indegree[v] == 0:
                heapq.heappush(ready, v)
    return order
