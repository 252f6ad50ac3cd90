"""What the soak prints: a table per minute, each series' slope after the first minute beside
its target, and what the traffic did.

Targets (the issue's: no series grows after the first minute), with the thresholds used:

- RSS < 0.2 MiB/min. The leak this guards against grew 1.9 MiB/min; a tenth of that is well
  clear of it, and well above the wobble of a few minutes of samples (the allocator's arenas
  and SQLite's page cache move RSS by a few hundred KiB either way).
- descriptors, threads and processes < 0.1 per minute: fewer than one more every ten minutes. Both
  move with what is in flight at the instant of a sample (a grading's worker and its socket),
  so a single extra one at the end should not read as growth, and a real leak of one per
  burst (ten a minute) is far above it.
- database: it keeps every submission by design (each /run is a row), so its logical size
  (pages, the WAL's included) may grow with gradings, by at most 4 KiB (one page) per grading:
  more would be something else piling up. The file itself grows only at WAL checkpoints, in
  steps, so it is shown but not judged.
- WAL: reused after each checkpoint, so it levels off at SQLite's autocheckpoint size
  (1000 pages of 4 KiB plus frame headers, about 4.0 MiB); the target is a bound, not a slope.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from bench.probe import Sample, slope

if TYPE_CHECKING:
    from bench.soak import Tally
    from tests.e2e.process import Run

WARM_UP = 60.0  # seconds left out of the slopes
WAL_BOUND_KIB = 1000 * (4096 + 24) / 1024 + 64  # autocheckpoint frames, plus a little slack


def by_minute(samples: list[Sample]) -> dict[int, Sample]:
    """The last sample of each minute, its end state: minute 0 is the first sample (the
    start), minute 1 ends at 60 s, and so on."""
    rows = {math.ceil(round(s.seconds) / 60): s for s in samples[1:]}  # 180.01 s ends minute 3
    return {0: samples[0], **rows} if samples else rows


def table(samples: list[Sample], tally: Tally) -> list[str]:
    lines = [
        "minute  RSS MiB  threads  fds  procs  data KiB  db KiB  WAL KiB  answered",
        "------  -------  -------  ---  -----  --------  ------  -------  --------",
    ]
    for minute, s in sorted(by_minute(samples).items()):
        answered = sum(minute - 1 < t / 60 <= minute for t in tally.done_at) if minute else 0
        lines.append(
            f"{minute:>6}  {s.rss_mib:7.1f}  {s.threads:7d}  {s.fds:3d}  {s.procs:5d}  "
            f"{s.data_kib:8.0f}  {s.db_kib:6.0f}  {s.wal_kib:7.0f}  {answered:8d}"
        )
    return lines


def series(samples: list[Sample], value: Callable[[Sample], float]) -> list[tuple[float, float]]:
    return [(s.seconds, value(s)) for s in samples if s.seconds >= WARM_UP]


def verdict(ok: bool) -> str:
    return "flat" if ok else "GROWS"


def slopes(samples: list[Sample], gradings_per_minute: float) -> list[str]:
    later = [s for s in samples if s.seconds >= WARM_UP]
    rss = slope(series(samples, lambda s: s.rss_mib))
    fds = slope(series(samples, lambda s: s.fds))
    threads = slope(series(samples, lambda s: s.threads))
    procs = slope(series(samples, lambda s: s.procs))
    data = slope(series(samples, lambda s: s.data_kib))
    per_grading = data / gradings_per_minute if gradings_per_minute else 0.0
    wal_max = max((s.wal_kib for s in samples), default=0.0)
    wal = slope(series(samples, lambda s: s.wal_kib))
    return [
        f"slopes after the first minute (least squares over {len(later)} samples, per minute):",
        f"  RSS        {rss:+8.3f} MiB/min   target < 0.2 MiB/min   {verdict(rss < 0.2)}",
        f"  threads    {threads:+8.3f} /min      target < 0.1 /min      {verdict(threads < 0.1)}",
        f"  fds        {fds:+8.3f} /min      target < 0.1 /min      {verdict(fds < 0.1)}",
        f"  processes  {procs:+8.3f} /min      target < 0.1 /min      {verdict(procs < 0.1)}",
        f"  data       {data:+8.1f} KiB/min   = {per_grading:.2f} KiB per grading; "
        f"target <= 4 KiB per grading (submissions are kept by design)  "
        f"{'ok' if per_grading <= 4 else 'TOO MUCH'}",
        f"  WAL        {wal:+8.1f} KiB/min   max {wal_max:.0f} KiB; target: bounded by "
        f"{WAL_BOUND_KIB:.0f} KiB (autocheckpoint)  {'ok' if wal_max <= WAL_BOUND_KIB else 'OVER'}",
    ]


def traffic(tally: Tally, minutes: float) -> list[str]:
    total_ok, total_failed = sum(tally.ok.values()), sum(tally.failed.values())
    lines = [f"traffic: {total_ok} requests answered, {total_failed} failed, "
             f"over {minutes:.1f} min"]  # fmt: skip
    for kind in sorted(set(tally.ok) | set(tally.failed)):
        lines.append(f"  {kind:<32} {tally.ok[kind]:6d} ok   {tally.failed[kind]:4d} failed")
    lines += [f"  failure: {reason}" for reason in tally.reasons]
    return lines


def report(samples: list[Sample], tally: Tally, run: Run, depths: list[int]) -> None:
    minutes = max((s.seconds for s in samples), default=0.0) / 60
    graded = sum(n for kind, n in tally.ok.items() if "graded" in kind)
    print(f"{len(samples)} samples; the bot's process tree at the end, by depth: "
          f"{' / '.join(map(str, depths))} (the bot / its grading zygote / warm workers / "
          f"each worker's pid 1 in its own namespaces)")  # fmt: skip
    for line in table(samples, tally):
        print(line)
    for line in slopes(samples, graded / minutes if minutes else 0.0):
        print(line)
    for line in traffic(tally, minutes):
        print(line)
    errors = [line for line in run.err if " ERROR " in line or "Traceback" in line]
    print(f"bot log: {len(run.err)} lines, {len(errors)} errors; exit status "
          f"{run.process.returncode} after SIGTERM")  # fmt: skip
    for line in errors[:5]:
        print("  " + line.rstrip()[:200])
