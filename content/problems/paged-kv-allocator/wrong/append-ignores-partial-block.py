# expect: wrong_answer
# On append, allocates ceil(new tokens / block_size) fresh blocks instead of first filling
# the free slots of the sequence's last block.
import heapq


def paged_kv(block_size: int, num_blocks: int, ops: list[list]) -> list:
    free = list(range(num_blocks))
    tables, out = {}, []
    for op in ops:
        if op[0] == "free":
            for block in tables.pop(op[1]):
                heapq.heappush(free, block)
            out.append([])
            continue
        table = tables.get(op[1], [])
        need = -(-op[2] // block_size)
        if need > len(free):
            out.append("OOM")
            continue
        for _ in range(need):
            table.append(heapq.heappop(free))
        tables[op[1]] = table
        out.append(list(table))
    return out
