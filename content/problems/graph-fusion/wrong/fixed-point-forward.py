# expect: time_limit_exceeded
# Starts from singleton groups and, sweeping in topological order until nothing changes,
# moves a node into the group all its users share: correct, but a label travels one node
# per sweep, so a chain of n nodes takes n sweeps, O(V^2).
ELEMENTWISE = frozenset(
    {"add", "sub", "mul", "div", "relu", "gelu", "sigmoid", "tanh", "exp", "neg"}
)

def fuse(graph):
    nodes = graph["nodes"]
    outputs = set(graph["outputs"])
    users = {n["name"]: [] for n in nodes}
    for n in nodes:
        for s in n["inputs"]:
            if s in users:
                users[s].append(n["name"])
    label = {n["name"]: n["name"] for n in nodes if n["op"] in ELEMENTWISE}
    changed = True
    while changed:
        changed = False
        for n in nodes:
            name = n["name"]
            if name not in label or name in outputs:
                continue
            labels = {label.get(u) for u in users[name]}
            if len(labels) == 1 and None not in labels:
                l = labels.pop()
                if label[name] != l:
                    label[name] = l
                    changed = True
    groups = {}
    for n in nodes:
        if n["name"] in label:
            groups.setdefault(label[n["name"]], []).append(n["name"])
    return list(groups.values())
