# expect: time_limit_exceeded
# Right answers, but sorts the ready list again at every step to take its smallest id:
# O(ready) per step even on a sorted list, O(n^2) when 100,000 operators are ready at once.
def topo_order(n, edges):
    users, indegree = [[] for _ in range(n)], [0] * n
    for u, v in edges:
        users[u].append(v)
        indegree[v] += 1
    ready = [v for v in range(n) if indegree[v] == 0]
    order = []
    while ready:
        ready.sort(reverse=True)
        u = ready.pop()
        order.append(u)
        for v in users[u]:
            indegree[v] -= 1
            if indegree[v] == 0:
                ready.append(v)
    return order if len(order) == n else []
