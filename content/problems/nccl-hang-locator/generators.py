"""Seeded tests for nccl-hang-locator: jobs that share one program of collectives, cut
short on some ranks (stragglers), with an op or a size changed on some ranks at one
sequence number, and ring buffers that keep only each rank's last entries; sequence
numbers run up to 10^9."""

OPS = ["all_reduce", "all_gather", "reduce_scatter", "broadcast", "all_to_all", "barrier"]


def _program(rng, start, length):
    return {start + i: (rng.choice(OPS), rng.choice([0, 1, 4096, 2 ** 20, 10 ** 12]))
            for i in range(length)}


def _other_size(size, delta):
    """A different size within the bounds 0..10^12."""
    return size + delta if size + delta <= 10 ** 12 else size - delta


def _logs(rng, program, start, ends, capacities, changes):
    """Each rank's ring buffer: the entries from max(start, end - capacity + 1) to end,
    with `changes` (rank, seq) -> (op, size) applied."""
    logs = []
    for rank, (end, capacity) in enumerate(zip(ends, capacities)):
        first = max(start, end - capacity + 1)
        log = []
        for seq in range(first, end + 1):
            op, size = changes.get((rank, seq), program[seq])
            log.append([seq, op, size])
        logs.append(log)
    return logs


def random_jobs(rng, count, ranks, length, high):
    cases = []
    for _ in range(count):
        w = rng.randint(1, ranks)
        n = rng.randint(1, length)
        start = rng.choice([1, 1, rng.randint(1, high - n)])
        program = _program(rng, start, n)
        end = start + n - 1
        ends = [end] * w
        for r in rng.sample(range(w), rng.randint(0, w)):  # stragglers
            if rng.random() < 0.5:
                ends[r] = rng.randint(start - 1, end)
        capacities = [rng.choice([n, n, rng.randint(1, n)]) for _ in range(w)]
        changes = {}
        if rng.random() < 0.7:
            seq = rng.randint(start, end)
            op, size = program[seq]
            for r in rng.sample(range(w), rng.randint(1, max(1, w // 2 + 1))):
                if rng.random() < 0.5:
                    changes[(r, seq)] = (rng.choice([o for o in OPS if o != op]), size)
                else:
                    changes[(r, seq)] = (op, _other_size(size, rng.choice([1, 4096])))
        cases.append([_logs(rng, program, start, ends, capacities, changes)])
    return cases


def structured(rng, ranks, length, high):
    """The largest jobs: all consistent near 10^9 (None), one rank short by one (missing at
    a sequence number near 10^9), a half-and-half tie on the op and on the size, rank 0 the
    odd one out, and a mismatch that only the ranks whose buffers still hold it can see."""
    start = high - length + 1
    end = high
    program = _program(rng, start, length)
    full = [length] * ranks
    cases = [[_logs(rng, program, start, [end] * ranks, full, {})]]
    short = [end] * ranks
    short[ranks // 3] = end - 1
    cases.append([_logs(rng, program, start, short, full, {})])
    seq = end - length // 2
    op, size = program[seq]
    other = next(o for o in OPS if o != op)
    half = {(r, seq): (other, size) for r in range(ranks // 2, ranks)}
    cases.append([_logs(rng, program, start, [end] * ranks, full, half)])
    half = {(r, seq): (op, _other_size(size, 1)) for r in range(0, ranks, 2)}
    cases.append([_logs(rng, program, start, [end] * ranks, full, half)])
    cases.append([_logs(rng, program, start, [end] * ranks, full, {(0, seq): (other, size)})])
    # the mismatch at `seq` sits on ranks whose buffers still hold it; most buffers have
    # already dropped it
    capacities = [length if r < 3 else end - seq for r in range(ranks)]
    changes = {(1, seq): (op, _other_size(size, 7))}
    cases.append([_logs(rng, program, start, [end] * ranks, capacities, changes)])
    return cases


def largest(rng, ranks, length, high):
    """The most ranks: all consistent (None), and one rank short by one at the end."""
    start = high - length + 1
    program = _program(rng, start, length)
    full = [length] * ranks
    short = [high] * ranks
    short[-1] = high - 1
    return [[_logs(rng, program, start, [high] * ranks, full, {})],
            [_logs(rng, program, start, short, full, {})]]
