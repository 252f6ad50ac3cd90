# expect: wrong_answer
# Checks the sizes before the ops: when both differ at one sequence number it reports a
# size mismatch; the op mismatch comes first.
from collections import Counter


def locate_hang(logs: list[list[list]]) -> dict | None:
    # the last collective each rank issued (0: none at all)
    last = [log[-1][0] if log else 0 for log in logs]
    stop = min(last) + 1  # the first sequence number some rank has not issued
    seen: dict[int, list[tuple]] = {}  # seq -> (rank, op, size) of the ranks that recorded it
    for rank, log in enumerate(logs):  # in rank order, so each list is sorted by rank
        for seq, op, size in log:
            if seq <= stop:  # a later sequence number cannot be the first disagreement
                seen.setdefault(seq, []).append((rank, op, size))
    for seq in sorted(seen):  # only the recorded numbers: they may be near 10**9
        entries = seen[seq]
        for kind, field in (("size_mismatch", 2), ("op_mismatch", 1)):
            values = [e[field] for e in entries]
            counts = Counter(values)
            if len(counts) > 1:
                # the expected value is the most common one; a tie goes to the lowest rank's
                most = max(counts.values())
                expected = next(v for v in values if counts[v] == most)
                return {"seq": seq, "kind": kind,
                        "ranks": [e[0] for e in entries if e[field] != expected]}
    if stop <= max(last):  # someone issued `stop`, and the ranks at min(last) never did
        return {"seq": stop, "kind": "missing",
                "ranks": [r for r in range(len(logs)) if last[r] < stop]}
    return None  # every rank issued the same collectives: no disagreement to report
