# expect: wrong_answer
# Keeps the free blocks as a stack: a freed block is reused first (last in, first out)
# instead of the lowest-numbered free block.
def paged_kv(block_size: int, num_blocks: int, ops: list[list]) -> list:
    free = list(range(num_blocks - 1, -1, -1))  # pop() gives 0, 1, 2, ... at first
    tables, lengths, out = {}, {}, []
    for op in ops:
        if op[0] == "free":
            free.extend(reversed(tables.pop(op[1])))
            del lengths[op[1]]
            out.append([])
            continue
        table = tables.get(op[1], [])
        total = lengths.get(op[1], 0) + op[2]
        need = -(-total // block_size) - len(table)
        if need > len(free):
            out.append("OOM")
            continue
        for _ in range(need):
            table.append(free.pop())
        tables[op[1]], lengths[op[1]] = table, total
        out.append(list(table))
    return out
