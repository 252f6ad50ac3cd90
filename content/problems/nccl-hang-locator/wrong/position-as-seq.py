# expect: wrong_answer
# Compares the logs position by position (entry i of every rank), as if every log started
# at sequence number 1: ring buffers start at different sequence numbers, so entries of
# different collectives get compared.
from collections import Counter


def locate_hang(logs):
    longest = max((len(log) for log in logs), default=0)
    for i in range(longest):
        entries = [(r, log[i]) for r, log in enumerate(logs) if i < len(log)]
        if len(entries) < len(logs):
            return {"seq": entries[0][1][0], "kind": "missing",
                    "ranks": [r for r, log in enumerate(logs) if i >= len(log)]}
        for kind, field in (("op_mismatch", 1), ("size_mismatch", 2)):
            values = [e[field] for _, e in entries]
            counts = Counter(values)
            if len(counts) > 1:
                most = max(counts.values())
                expected = next(v for v in values if counts[v] == most)
                return {"seq": entries[0][1][0], "kind": kind,
                        "ranks": [r for r, e in entries if e[field] != expected]}
    return None
