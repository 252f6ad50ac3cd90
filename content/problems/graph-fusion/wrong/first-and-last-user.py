# expect: wrong_answer
# Compares only the first and the last user's groups: a middle user in another group is
# missed, and the node joins a group it has a second exit in.
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
    label = {}
    for node in reversed(nodes):
        name = node["name"]
        if node["op"] not in ELEMENTWISE:
            continue
        us = users[name]
        if name in outputs or not us or label.get(us[0]) is None or label.get(us[0]) != label.get(us[-1]):
            label[name] = name
        else:
            label[name] = label[us[0]]
    groups = {}
    for n in nodes:
        if n["name"] in label:
            groups.setdefault(label[n["name"]], []).append(n["name"])
    return list(groups.values())
