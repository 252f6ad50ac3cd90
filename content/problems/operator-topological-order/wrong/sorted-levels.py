# expect: wrong_answer
# Runs the graph level by level (each level sorted), like graphlib's get_ready batches: an
# operator made ready mid-level waits for the next level even when its id is smaller.
def topo_order(n, edges):
    users, indegree = [[] for _ in range(n)], [0] * n
    for u, v in edges:
        users[u].append(v)
        indegree[v] += 1
    layer = [v for v in range(n) if indegree[v] == 0]
    order = []
    while layer:
        layer.sort()
        nxt = []
        for u in layer:
            order.append(u)
            for v in users[u]:
                indegree[v] -= 1
                if indegree[v] == 0:
                    nxt.append(v)
        layer = nxt
    return order if len(order) == n else []
