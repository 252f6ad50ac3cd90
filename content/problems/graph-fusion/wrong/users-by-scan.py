# expect: time_limit_exceeded
# Finds the users of each node by scanning every node's inputs: O(V^2) instead of building
# the user lists once; a graph of 5000 nodes takes seconds.
ELEMENTWISE = frozenset(
    {"add", "sub", "mul", "div", "relu", "gelu", "sigmoid", "tanh", "exp", "neg"}
)

def fuse(graph):
    nodes = graph["nodes"]
    outputs = set(graph["outputs"])
    label = {}
    for node in reversed(nodes):
        name = node["name"]
        if node["op"] not in ELEMENTWISE:
            continue
        users = [m["name"] for m in nodes if name in m["inputs"]]
        labels = {label.get(u) for u in users}
        if name in outputs or len(labels) != 1 or None in labels:
            label[name] = name
        else:
            label[name] = labels.pop()
    groups = {}
    for node in nodes:
        if node["name"] in label:
            groups.setdefault(label[node["name"]], []).append(node["name"])
    return list(groups.values())
