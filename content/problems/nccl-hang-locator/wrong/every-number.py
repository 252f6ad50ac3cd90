# expect: time_limit_exceeded
# Walks every sequence number from 1 up to the first one some rank has not issued, looking
# each up in every rank's log: right answers, but the work grows with the sequence numbers
# themselves, and they reach 10^9 (ring buffers keep only the last entries).
from collections import Counter


def locate_hang(logs):
    last = [log[-1][0] if log else 0 for log in logs]
    stop = min(last) + 1
    index = [{e[0]: e for e in log} for log in logs]
    seq = 1
    while seq <= stop:
        entries = [(r, idx[seq][1], idx[seq][2]) for r, idx in enumerate(index) if seq in idx]
        for kind, field in (("op_mismatch", 1), ("size_mismatch", 2)):
            values = [e[field] for e in entries]
            counts = Counter(values)
            if len(counts) > 1:
                most = max(counts.values())
                expected = next(v for v in values if counts[v] == most)
                return {"seq": seq, "kind": kind,
                        "ranks": [e[0] for e in entries if e[field] != expected]}
        seq += 1
    if stop <= max(last):
        return {"seq": stop, "kind": "missing",
                "ranks": [r for r in range(len(logs)) if last[r] < stop]}
    return None
