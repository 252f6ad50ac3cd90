# expect: wrong_answer
# A valid topological order from DFS (reverse post-order, cycles detected by colours), but
# it ignores the tie-break: the smallest ready operator must always run next.
def topo_order(n: int, edges: list[list[int]]) -> list[int]:
    users = [[] for _ in range(n)]
    for u, v in edges:
        users[u].append(v)
    colour, post = [0] * n, []  # 0 unseen, 1 on the stack, 2 done
    for root in range(n):
        if colour[root]:
            continue
        stack = [(root, 0)]
        colour[root] = 1
        while stack:
            u, i = stack.pop()
            if i < len(users[u]):
                stack.append((u, i + 1))
                v = users[u][i]
                if colour[v] == 1:
                    return []
                if colour[v] == 0:
                    colour[v] = 1
                    stack.append((v, 0))
            else:
                colour[u] = 2
                post.append(u)
    return post[::-1]
