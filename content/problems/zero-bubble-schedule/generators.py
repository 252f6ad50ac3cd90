"""Seeded pipeline schedules to simulate: [costs [F, B, W], comm, schedule], where
schedule[s] lists stage s's ops in order, each "F<j>", "B<j>" or "W<j>"."""


def _one_f_one_b(p, m):
    """1F1B, each W right after its B: stage s warms up with min(p - s, m) forwards."""
    return _zb_h1(p, m, lambda s: 0)


def _zb_h1(p, m, delay=None):
    """ZB-H1 (Qi et al.): 1F1B's order with stage s's W passes deferred by s steady-state
    iterations; the deferred W passes fill the cool-down at the end."""
    delay = delay or (lambda s: s)
    schedule = []
    for s in range(p):
        warm = min(p - s, m)
        ops, nf, nw = [f"F{j}" for j in range(warm)], warm, 0
        for j in range(m):
            ops.append(f"B{j}")
            if j >= delay(s):
                ops.append(f"W{nw}")
                nw += 1
            if nf < m:
                ops.append(f"F{nf}")
                nf += 1
        ops += [f"W{k}" for k in range(nw, m)]
        schedule.append(ops)
    return schedule


def _gpipe(p, m):
    """All forwards, then each backward followed by its W, last micro-batch first."""
    return [[f"F{j}" for j in range(m)]
            + [op for j in reversed(range(m)) for op in (f"B{j}", f"W{j}")] for _ in range(p)]


def named(rng, p, m, costs, comm):
    """The same pipeline scheduled as 1F1B, ZB-H1 and GPipe."""
    return [[costs, comm, f(p, m)] for f in (_one_f_one_b, _zb_h1, _gpipe)]


def shuffled(rng, count, p, m, max_cost, max_comm):
    """`count` random per-stage orders that keep each micro-batch's F before its B before its
    W and the forwards in order: many deadlock across stages, some do not."""
    cases = []
    for _ in range(count):
        pp, mm = rng.randint(1, p), rng.randint(1, m)
        schedule = []
        for _ in range(pp):
            nf, pend_b, pend_w, ops = 0, [], [], []
            while len(ops) < 3 * mm:
                choices = (["F"] if nf < mm else []) + (["B"] if pend_b else []) + (["W"] if pend_w else [])
                kind = rng.choice(choices)
                if kind == "F":
                    ops.append(f"F{nf}")
                    pend_b.append(nf)
                    nf += 1
                elif kind == "B":
                    j = pend_b.pop(rng.randrange(len(pend_b)))
                    ops.append(f"B{j}")
                    pend_w.append(j)
                else:
                    ops.append(f"W{pend_w.pop(rng.randrange(len(pend_w)))}")
            schedule.append(ops)
        costs = [rng.randint(1, max_cost) for _ in range(3)]
        cases.append([costs, rng.randint(0, max_comm), schedule])
    return cases


def perturbed(rng, count, p, m, max_cost, max_comm):
    """ZB-H1 and 1F1B schedules with W passes moved to random later places on random
    stages: valid, with the makespan and the idle time of every stage changed."""
    cases = []
    for i in range(count):
        schedule = (_zb_h1 if i % 2 else _one_f_one_b)(p, m)
        for _ in range(p):
            ops = schedule[rng.randrange(p)]
            ws = [k for k, op in enumerate(ops) if op[0] == "W"]
            k = rng.choice(ws)
            op = ops.pop(k)
            ops.insert(rng.randint(k, len(ops)), op)
        costs = [rng.randint(1, max_cost) for _ in range(3)]
        cases.append([costs, rng.randint(0, max_comm), schedule])
    return cases
