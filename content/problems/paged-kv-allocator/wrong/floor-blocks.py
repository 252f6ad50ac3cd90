# expect: wrong_answer
# Counts blocks with floor division: ceil slipped to tokens // block_size, so the last,
# partly filled block is never allocated (6 tokens in blocks of 4 get 1 block, not 2).
import heapq


def paged_kv(block_size: int, num_blocks: int, ops: list[list]) -> list:
    free = list(range(num_blocks))
    tables, lengths, out = {}, {}, []
    for op in ops:
        if op[0] == "free":
            for block in tables.pop(op[1]):
                heapq.heappush(free, block)
            del lengths[op[1]]
            out.append([])
            continue
        table = tables.get(op[1], [])
        total = lengths.get(op[1], 0) + op[2]
        need = total // block_size - len(table)
        if need > len(free):
            out.append("OOM")
            continue
        for _ in range(max(need, 0)):
            table.append(heapq.heappop(free))
        tables[op[1]], lengths[op[1]] = table, total
        out.append(list(table))
    return out
