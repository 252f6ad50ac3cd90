# expect: wrong_answer
# Treats a node as its group's exit only when nothing uses it, forgetting that a graph
# output may also be used by other nodes: that group then has two members seen outside.
ELEMENTWISE = frozenset(
    {"add", "sub", "mul", "div", "relu", "gelu", "sigmoid", "tanh", "exp", "neg"}
)

def fuse(graph):
    nodes = graph["nodes"]
    users = {n["name"]: [] for n in nodes}
    for n in nodes:
        for s in n["inputs"]:
            if s in users:
                users[s].append(n["name"])
    label = {}
    for node in reversed(nodes):
        name = node["name"]
        if node["op"] not in ELEMENTWISE:
            continue
        labels = {label.get(u) for u in users[name]}
        if not users[name] or len(labels) != 1 or None in labels:
            label[name] = name
        else:
            label[name] = labels.pop()
    groups = {}
    for n in nodes:
        if n["name"] in label:
            groups.setdefault(label[n["name"]], []).append(n["name"])
    return list(groups.values())
