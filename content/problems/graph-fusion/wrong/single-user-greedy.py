# expect: wrong_answer
# Joins a node to its user's group only when it has exactly one user. Every group is
# valid, but a diamond (a -> g, a -> s, g -> m, s -> m) is split into more groups than
# needed: the rule is "all users in the same group", not "one user".
ELEMENTWISE = frozenset(
    {"add", "sub", "mul", "div", "relu", "gelu", "sigmoid", "tanh", "exp", "neg"}
)


def fuse(graph: dict) -> list[list[str]]:
    nodes = graph["nodes"]
    outputs = set(graph["outputs"])
    ops = {node["name"]: node["op"] for node in nodes}
    users: dict[str, list[str]] = {node["name"]: [] for node in nodes}
    for node in nodes:
        for src in node["inputs"]:
            if src in users:
                users[src].append(node["name"])
    label: dict[str, str] = {}
    for node in reversed(nodes):
        name = node["name"]
        if node["op"] not in ELEMENTWISE:
            continue
        mine = users[name]
        if name in outputs or len(mine) != 1 or ops[mine[0]] not in ELEMENTWISE:
            label[name] = name
        else:
            label[name] = label[mine[0]]
    groups: dict[str, list[str]] = {}
    for name, exit_ in label.items():
        groups.setdefault(exit_, []).append(name)
    return list(groups.values())
