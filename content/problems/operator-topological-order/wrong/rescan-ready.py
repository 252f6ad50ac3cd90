# expect: time_limit_exceeded
# Right answers, but finds the smallest ready operator with min() over a list and removes
# it with list.remove: O(ready) per step, O(n^2) when 100,000 operators are ready at once.
def topo_order(n: int, edges: list[list[int]]) -> list[int]:
    users, indegree = [[] for _ in range(n)], [0] * n
    for u, v in edges:
        users[u].append(v)
        indegree[v] = indegree[v] + 1
    ready = [v for v in range(n) if indegree[v] == 0]
    order = []
    while ready:
        u = min(ready)
        ready.remove(u)
        order.append(u)
        for v in users[u]:
            indegree[v] = indegree[v] - 1
            if indegree[v] == 0:
                ready.append(v)
    return order if len(order) == n else []
