# expect: time_limit_exceeded
# Keeps the free blocks in a set and takes min() of it for every block it allocates:
# the lowest id, but O(num_blocks) per block, and the pool holds up to 10^5 blocks.
def paged_kv(block_size, num_blocks, ops):
    free = set(range(num_blocks))
    tables, lengths, out = {}, {}, []
    for op in ops:
        kind, seq = op[0], op[1]
        if kind == "free":
            free.update(tables.pop(seq)); del lengths[seq]; out.append([]); continue
        table = tables.get(seq, [])
        total = lengths.get(seq, 0) + op[2]
        need = -(-total // block_size) - len(table)
        if need > len(free):
            out.append("OOM"); continue
        for _ in range(need):
            b = min(free); free.remove(b); table.append(b)
        tables[seq], lengths[seq] = table, total
        out.append(list(table))
    return out
