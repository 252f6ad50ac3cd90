"""A running process seen from outside, through /proc, and the arithmetic of a soak's series.

`sample(pid, database)` reads what a long-running bot could leak, without its cooperation:

- `rss_mib`, `threads`: the process's resident set and threads (VmRSS, Threads of
  /proc/<pid>/status)
- `fds`: its open descriptors (entries of /proc/<pid>/fd)
- `procs`: the processes in its tree, itself included (the grading zygote and its workers),
  found through /proc/<pid>/task/*/children, recursively
- `db_kib`, `wal_kib`: the SQLite database file and its write-ahead log
- `data_kib`: the database's logical size (page_count x page_size, through a read-only
  connection of this process), which counts pages still in the WAL: the file itself grows
  only at checkpoints, in steps, and the WAL is reused, so neither file shows rows as they come

A process of the tree may exit while it is being read (a worker that finished its job); it is
then simply not counted. `slope` is the least-squares slope of a series, per minute.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")


@dataclass(frozen=True, slots=True)
class Sample:
    seconds: float  # since the soak began
    rss_mib: float
    threads: int
    fds: int
    procs: int
    db_kib: float
    wal_kib: float
    data_kib: float


def sample(pid: int, database: Path, began: float) -> Sample:
    return Sample(
        seconds=time.monotonic() - began,
        rss_mib=status(pid, "VmRSS") / 1024,
        threads=status(pid, "Threads"),
        fds=fd_count(pid),
        procs=len(tree(pid)),
        db_kib=_size(database) / 1024,
        wal_kib=_size(database.with_name(database.name + "-wal")) / 1024,
        data_kib=logical_size(database) / 1024,
    )


def status(pid: int, key: str) -> int:
    """A number of /proc/<pid>/status ("VmRSS:   123456 kB" -> 123456); 0 if absent (a
    zombie has no VmRSS)."""
    for line in (PROC / str(pid) / "status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def fd_count(pid: int) -> int:
    return sum(1 for _ in (PROC / str(pid) / "fd").iterdir())


def tree(pid: int) -> list[int]:
    """`pid` and every descendant still alive."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        found.append(current)
        pending += children(current)
    return found


def children(pid: int) -> list[int]:
    kids: list[int] = []
    try:
        tasks = list((PROC / str(pid) / "task").iterdir())
    except FileNotFoundError:
        return kids
    for task in tasks:
        try:
            kids += [int(k) for k in (task / "children").read_text().split()]
        except FileNotFoundError:  # the thread or the process ended meanwhile
            continue
    return kids


def levels(pid: int) -> list[int]:
    """How many processes of the tree at each depth: [1 (pid itself), its children, ...]."""
    counts, layer = [], [pid]
    while layer:
        counts.append(len(layer))
        layer = [kid for parent in layer for kid in children(parent)]
    return counts


def logical_size(database: Path) -> int:
    """page_count x page_size, read as another process would (read-only); 0 if unreadable."""
    try:
        with contextlib.closing(sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)) as db:
            pages = db.execute("PRAGMA page_count").fetchone()[0]
            return int(pages) * int(db.execute("PRAGMA page_size").fetchone()[0])
    except sqlite3.Error:
        return 0


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, value) points, in value per minute; 0 for fewer than
    two distinct times."""
    n = len(points)
    if n < 2:
        return 0.0
    mean_t = sum(t for t, _ in points) / n
    mean_v = sum(v for _, v in points) / n
    spread = sum((t - mean_t) ** 2 for t, _ in points)
    if spread == 0:
        return 0.0
    per_second = sum((t - mean_t) * (v - mean_v) for t, v in points) / spread
    return per_second * 60
