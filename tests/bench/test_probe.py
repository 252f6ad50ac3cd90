"""The soak's outside view of a process (bench/probe.py), on this test's own process."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from bench.probe import levels, sample, slope, status


def test_the_slope_is_per_minute_and_zero_for_a_flat_or_single_point() -> None:
    assert slope([(0.0, 10.0), (30.0, 11.0), (60.0, 12.0)]) == 2.0
    assert slope([(0.0, 5.0), (60.0, 5.0), (120.0, 5.0)]) == 0.0
    assert slope([(0.0, 5.0)]) == 0.0


def test_a_sample_reads_this_process_and_its_child(tmp_path: Path) -> None:
    database = tmp_path / "probe.sqlite3"
    with closing(sqlite3.connect(database)) as db:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("CREATE TABLE t (x)")
        child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                                 stdin=subprocess.PIPE)  # fmt: skip
        try:
            seen = sample(os.getpid(), database, began=0.0)
            assert levels(os.getpid())[0] == 1 and levels(os.getpid())[1] >= 1
        finally:
            assert child.stdin is not None
            child.stdin.close()
            child.wait()
    assert seen.rss_mib > 1 and status(os.getpid(), "Threads") >= 1
    assert seen.threads >= 1 and seen.fds >= 3 and seen.procs >= 2
    assert seen.data_kib > 0 and seen.wal_kib > 0
