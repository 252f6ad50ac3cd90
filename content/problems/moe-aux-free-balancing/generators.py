"""Seeded score tensors for auxiliary-loss-free MoE balancing: scores[step][token][expert]."""


def random_scores(rng, count, steps, tokens, experts, k, gamma, high):
    """`count` cases of integer scores in [0, high]; a small `high` makes many ties."""
    cases = []
    for _ in range(count):
        e = rng.randint(1, experts)
        scores = [[[rng.randint(0, high) for _ in range(e)] for _ in range(rng.randint(0, tokens))]
                  for _ in range(rng.randint(0, steps))]
        cases.append([scores, e, rng.randint(1, min(k, e)), rng.randint(1, gamma)])
    return cases


def hot_experts(rng, steps, tokens, experts, k, gamma, hot):
    """The first `hot` experts score far above the rest for every token, so routing by
    score alone sends everything to them; only the biases spread the load."""
    scores = [[[rng.randint(800, 1000) if e < hot else rng.randint(0, 200) for e in range(experts)]
               for _ in range(tokens)] for _ in range(steps)]
    return [[scores, experts, k, gamma]]


def all_equal(rng, steps, tokens, experts, k, gamma, value):
    """Every score equal: each choice is decided by the biases and then the lower index,
    and the loads hit the mean exactly whenever tokens * k is a multiple of experts."""
    scores = [[[value] * experts for _ in range(tokens)] for _ in range(steps)]
    return [[scores, experts, k, gamma]]


def near_ties(rng, steps, tokens, experts, k, gamma):
    """Scores that differ by multiples of gamma, so biased scores tie across experts often."""
    scores = [[[gamma * rng.randint(0, 3) for _ in range(experts)] for _ in range(tokens)]
              for _ in range(steps)]
    return [[scores, experts, k, gamma]]
