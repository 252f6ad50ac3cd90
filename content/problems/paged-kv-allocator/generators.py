"""Seeded random operation streams for the paged KV allocator."""


def kv_ops(rng, count, block_size, num_blocks, length, max_tokens):
    """`count` cases of `length` valid ops over a pool small enough that some ops fail."""
    cases = []
    for _ in range(count):
        tokens, blocks, used = {}, {}, 0  # the live sequences, tracked as the ops go
        reusable, next_id, ops = [], 0, []
        for _ in range(length):
            r = rng.random()
            if tokens and r < 0.25:
                seq = rng.choice(list(tokens)) if len(tokens) < 64 else next(iter(tokens))
                ops.append(["free", seq])
                used -= blocks.pop(seq)
                del tokens[seq]
                reusable.append(seq)
                continue
            if tokens and r < 0.65:
                seq = rng.choice(list(tokens)) if len(tokens) < 64 else next(iter(tokens))
                add = rng.randint(1, max_tokens // 4 + 1)
            else:
                if reusable and rng.random() < 0.5:
                    seq = reusable.pop(rng.randrange(len(reusable)))
                else:
                    seq, next_id = next_id, next_id + 1
                add = rng.choice([rng.randint(1, max_tokens), block_size * rng.randint(1, 4)])
            ops.append(["append" if seq in tokens else "add", seq, add])
            total = tokens.get(seq, 0) + add
            need = -(-total // block_size) - blocks.get(seq, 0)
            if need <= num_blocks - used:
                used += need
                tokens[seq], blocks[seq] = total, blocks.get(seq, 0) + need
            elif seq not in tokens:
                reusable.append(seq)  # a failed add: the id may be added again
        cases.append([block_size, num_blocks, ops])
    return cases


def churn(rng, block_size, num_blocks, pinned, length, max_tokens):
    """Long-lived sequences pin the lowest `pinned` blocks (1000 tokens each add), then
    short sequences come and go above them until there are `length` ops: every new block
    is the lowest free one, found above the pinned ones, so scanning for it from block 0
    costs O(num_blocks) per block, while a heap costs O(log num_blocks)."""
    ops, live, next_id, held = [], [], 0, 0
    while held + 1000 // block_size <= pinned:  # the pinned sequences, 1000 tokens each
        ops.append(["add", next_id, 1000])
        next_id += 1
        held += -(-1000 // block_size)
    while len(ops) < length:
        if live and (len(live) > 3 or rng.random() < 0.4):
            ops.append(["free", live.pop(rng.randrange(len(live)))])
        elif live and rng.random() < 0.3:
            ops.append(["append", rng.choice(live), rng.randint(1, max_tokens)])
        else:
            ops.append(["add", next_id, rng.randint(1, max_tokens)])
            live.append(next_id)
            next_id += 1
    return [[block_size, num_blocks, ops]]
