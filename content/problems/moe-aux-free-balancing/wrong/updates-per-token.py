# expect: wrong_answer
# Updates the biases after every token from the loads so far, instead of once after the
# whole step from the step's loads.
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
            seen = sum(load)
            for e in experts:
                if load[e] * num_experts > seen:
                    bias[e] -= gamma
                elif load[e] * num_experts < seen:
                    bias[e] += gamma
            load = [0] * num_experts  # the next token starts afresh
        assignments.append(chosen_step)
    return [assignments, bias]
