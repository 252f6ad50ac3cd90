"""The throwaway cluster itself: tuned for tests, and stopped and removed even on failure."""

from __future__ import annotations

import socket
from pathlib import Path

import psycopg
import pytest

from tests.postgres import Cluster, find_bindir, running_cluster


def test_the_cluster_is_tuned_for_throwaway_data(postgres_cluster: Cluster) -> None:
    with psycopg.connect(postgres_cluster.dsn()) as conn:
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            assert conn.execute(f"SHOW {setting}".encode()).fetchone() == ("off",)
        assert conn.execute("SHOW server_encoding").fetchone() == ("UTF8",)


def test_a_failing_session_still_stops_the_server_and_removes_its_folder(
    postgres_cluster: Cluster,  # skips with the others where no server is installed
) -> None:
    bindir = find_bindir()
    assert bindir is not None
    with pytest.raises(RuntimeError, match="a test failed"), running_cluster(bindir) as cluster:
        data = _data_folder(cluster)
        raise RuntimeError("a test failed")
    assert not data.exists()
    with socket.socket() as probe:
        assert probe.connect_ex((cluster.host, cluster.port)) != 0  # nothing listens


def _data_folder(cluster: Cluster) -> Path:
    with psycopg.connect(cluster.dsn()) as conn:
        row = conn.execute("SHOW data_directory").fetchone()
    assert row is not None
    return Path(str(row[0]))
