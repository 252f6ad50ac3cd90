"""Seeded router logits for top-1 MoE dispatch: some experts are favoured (so they
overflow), and some logits are rounded so that rows have exact ties."""


def router_logits(rng, count, tokens, experts):
    cases = []
    for _ in range(count):
        t = rng.randint(1, tokens) if tokens <= 64 else tokens
        e = rng.randint(1, experts) if experts <= 8 else experts
        bias = [rng.gauss(0.0, 1.0) for _ in range(e)]
        coarse = rng.random() < 0.4  # one decimal: ties become likely
        rows = []
        for _ in range(t):
            row = [bias[j] + rng.gauss(0.0, 1.0) for j in range(e)]
            rows.append([round(x, 1) if coarse else round(x, 6) for x in row])
        factor = rng.choice([0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0])
        cases.append([rows, factor])
    return cases
