# expect: wrong_answer
# Moves the bias the wrong way: an overloaded expert gets +gamma (more tokens next step)
# and an underloaded one -gamma.
def route(scores: list[list[list[int]]], num_experts: int, k: int,
          gamma: int) -> list:
    bias = [0] * num_experts  # one bias per expert, used only to pick experts
    experts = range(num_experts)
    assignments = []
    for step in scores:
        load = [0] * num_experts
        chosen_step = []
        for row in step:
            # top-k by biased score, ties by lower index: sort by (-(s + b), e)
            chosen = sorted(experts, key=lambda e: (-(row[e] + bias[e]), e))[:k]
            for e in chosen:
                load[e] += 1
            chosen_step.append(sorted(chosen))
        assignments.append(chosen_step)
        # after the step: overloaded experts down by gamma, underloaded up by gamma.
        # mean load = T * k / E; compare load * E with T * k to stay in integers.
        total = len(step) * k
        for e in experts:
            if load[e] * num_experts > total:
                bias[e] += gamma
            elif load[e] * num_experts < total:
                bias[e] -= gamma
    return [assignments, bias]
