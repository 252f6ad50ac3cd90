# expect: time_limit_exceeded
# Keeps a boolean array of used blocks and scans it from block 0 for every block it
# allocates: O(num_blocks) per block; with the lowest 20000 blocks held, each scan walks them.
def paged_kv(block_size, num_blocks, ops):
    used = [False] * num_blocks
    nfree = num_blocks
    tables, lengths, out = {}, {}, []
    for op in ops:
        kind, seq = op[0], op[1]
        if kind == "free":
            for b in tables.pop(seq):
                used[b] = False
                nfree += 1
            del lengths[seq]; out.append([]); continue
        table = tables.get(seq, [])
        total = lengths.get(seq, 0) + op[2]
        need = -(-total // block_size) - len(table)
        if need > nfree:
            out.append("OOM"); continue
        for _ in range(need):
            b = 0
            while used[b]:
                b += 1
            used[b] = True
            nfree -= 1
            table.append(b)
        tables[seq], lengths[seq] = table, total
        out.append(list(table))
    return out
