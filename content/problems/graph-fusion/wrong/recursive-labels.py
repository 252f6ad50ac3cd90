# expect: runtime_error
# Labels each node recursively from its users' labels (memoised): right, but a chain
# thousands of nodes deep exceeds the recursion limit.
ELEMENTWISE = frozenset(
    {"add", "sub", "mul", "div", "relu", "gelu", "sigmoid", "tanh", "exp", "neg"}
)

def fuse(graph):
    nodes = graph["nodes"]
    outputs = set(graph["outputs"])
    ops = {n["name"]: n["op"] for n in nodes}
    users = {n["name"]: [] for n in nodes}
    for n in nodes:
        for s in n["inputs"]:
            if s in users:
                users[s].append(n["name"])
    memo = {}
    def lab(v):
        if v in memo: return memo[v]
        if ops[v] not in ELEMENTWISE: return None
        ls = {lab(u) for u in users[v]}
        r = v if (v in outputs or len(ls) != 1 or None in ls) else ls.pop()
        memo[v] = r
        return r
    groups = {}
    for n in nodes:
        if n["op"] in ELEMENTWISE:
            groups.setdefault(lab(n["name"]), []).append(n["name"])
    return list(groups.values())
