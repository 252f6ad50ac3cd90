"""Structured graphs for graph-fusion, beside the random ones of bot/grading/generators.py:
long chains (deep: a recursive solution overflows the stack, a fixed-point iteration in
forward order needs one pass per node), chains of diamonds (every node but the sinks has
two users: a walk to the exit without memoisation doubles at each diamond), and wide
fan-outs, with non-elementwise nodes and graph outputs cutting them."""

ELEMENTWISE = ("add", "sub", "mul", "div", "relu", "gelu", "sigmoid", "tanh", "exp", "neg")
UNARY_EW = ("relu", "gelu", "sigmoid", "tanh", "exp", "neg")


def _graph(nodes, outputs):
    return [{"inputs": ["x"], "nodes": nodes, "outputs": outputs}]


def chain(rng, n, cut_every=0, output_every=0):
    """x -> n0 -> n1 -> ... -> n(n-1), unary elementwise ops; every `cut_every`-th node is a
    transpose (never fused) and every `output_every`-th node is also a graph output."""
    nodes, outputs, prev = [], [], "x"
    for i in range(n):
        cut = cut_every and i % cut_every == cut_every - 1
        op = "transpose" if cut else rng.choice(UNARY_EW)
        nodes.append({"name": f"c{i}", "op": op, "inputs": [prev]})
        if output_every and i % output_every == output_every - 1:
            outputs.append(f"c{i}")
        prev = f"c{i}"
    if prev not in outputs:
        outputs.append(prev)
    return [_graph(nodes, outputs)]


def diamonds(rng, k):
    """k diamonds in a row: a -> (g, s) -> m = mul(g, s) -> the next diamond's a."""
    nodes, prev = [], "x"
    for i in range(k):
        nodes += [
            {"name": f"a{i}", "op": rng.choice(UNARY_EW), "inputs": [prev]},
            {"name": f"g{i}", "op": rng.choice(UNARY_EW), "inputs": [f"a{i}"]},
            {"name": f"s{i}", "op": rng.choice(UNARY_EW), "inputs": [f"a{i}"]},
            {"name": f"m{i}", "op": "mul", "inputs": [f"g{i}", f"s{i}"]},
        ]
        prev = f"m{i}"
    return [_graph(nodes, [prev])]


def fan(rng, n, outputs_too=False):
    """One node e used by n elementwise nodes u_i, summed by a chain of adds (all one group),
    or, with outputs_too, each u_i also a graph output (then every node is its own group)."""
    nodes = [{"name": "e", "op": "exp", "inputs": ["x"]}]
    nodes += [{"name": f"u{i}", "op": rng.choice(UNARY_EW), "inputs": ["e"]} for i in range(n)]
    acc = "u0"
    for i in range(1, n):
        nodes.append({"name": f"s{i}", "op": "add", "inputs": [acc, f"u{i}"]})
        acc = f"s{i}"
    outputs = [f"u{i}" for i in range(n)] if outputs_too else []
    return [_graph(nodes, [*outputs, acc])]
