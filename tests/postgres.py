"""A throwaway PostgreSQL cluster for the tests: one per session, in a temporary folder.

Debian installs the server binaries (`initdb`, `pg_ctl`) outside PATH, so they are found
through `pg_config --bindir`, then /usr/lib/postgresql/<newest>/bin, then PATH;
STUDYBOT_PG_BINDIR overrides all of these. Where none exists, `find_bindir` returns None
and the Postgres tests skip, saying what is missing.

`initdb` refuses to run as root, so as root the cluster belongs to the `postgres` system
user (Debian's package creates it; else `nobody`) and every server command runs through
`runuser`; as anyone else it belongs to the current user. The folder is made in /tmp itself,
not under pytest's root-only basetemp, so that user can reach it.

The server listens on 127.0.0.1 (a free port) and on a socket in the folder, trusts local
connections, and is tuned for throwaway data: no fsync, no synchronous commit, no full-page
writes. Durability is not what these tests test.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "postgres"
SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "200",
    "shared_buffers": "32MB",
}


@dataclass(frozen=True)
class Cluster:
    """A running throwaway server; `dsn(name)` connects to database `name` over TCP."""

    host: str
    port: int
    started_in: float  # seconds from initdb to accepting connections

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@{self.host}:{self.port}/{database}"


def find_bindir() -> Path | None:
    """The folder holding `initdb` and `pg_ctl`, or None where no server is installed."""
    for candidate in _candidates():
        if (candidate / "initdb").is_file() and (candidate / "pg_ctl").is_file():
            return candidate
    return None


def _candidates() -> Iterator[Path]:
    if override := os.environ.get("STUDYBOT_PG_BINDIR"):
        yield Path(override)
        return
    if pg_config := shutil.which("pg_config"):
        found = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        if found.returncode == 0:
            yield Path(found.stdout.strip())
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=_major, reverse=True)
    yield from debian
    if initdb := shutil.which("initdb"):
        yield Path(initdb).parent


def _major(bindir: Path) -> int:
    version = bindir.parent.name
    return int(version) if version.isdigit() else 0


@contextmanager
def running_cluster(bindir: Path) -> Iterator[Cluster]:
    """Start a cluster in a new temporary folder; stop it and remove the folder on exit."""
    folder = Path(tempfile.mkdtemp(prefix="studybot-pg-"))
    owner = _owner()
    try:
        if owner is not None:
            shutil.chown(folder, owner.pw_uid, owner.pw_gid)
        started = time.perf_counter()
        _initdb(bindir, folder, owner)
        port = _start(bindir, folder, owner)
        try:
            yield Cluster("127.0.0.1", port, time.perf_counter() - started)
        finally:
            _run(owner, [bindir / "pg_ctl", "stop", "-D", folder / "data", "-m", "fast", "-w"])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _owner() -> pwd.struct_passwd | None:
    """The system user to run the server as when we are root (initdb refuses root)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise RuntimeError("running as root, but neither a postgres nor a nobody user exists")


def _initdb(bindir: Path, folder: Path, owner: pwd.struct_passwd | None) -> None:
    data = folder / "data"
    _run(owner, [bindir / "initdb", "-D", data, "-U", SUPERUSER, "--auth=trust",
                 "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])  # fmt: skip
    settings = {**SETTINGS, "unix_socket_directories": f"'{folder}'"}
    with (data / "postgresql.conf").open("a") as conf:
        conf.writelines(f"{key} = {value}\n" for key, value in settings.items())


def _start(bindir: Path, folder: Path, owner: pwd.struct_passwd | None) -> int:
    """Start on a free port; another process may take the port first, so try a few."""
    for _ in range(3):
        port = _free_port()
        started = _run(owner, [bindir / "pg_ctl", "start", "-D", folder / "data", "-w",
                               "-l", folder / "server.log", "-o", f"-p {port}"],
                       check=False)  # fmt: skip
        if started.returncode == 0:
            return port
    log = (folder / "server.log").read_text(errors="replace")
    raise RuntimeError(f"the throwaway PostgreSQL did not start:\n{log}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _run(
    owner: pwd.struct_passwd | None, argv: list[str | Path], *, check: bool = True
) -> subprocess.CompletedProcess[str]:
    command = [str(part) for part in argv]
    if owner is not None:
        command = ["runuser", "-u", owner.pw_name, "--", *command]
    # cwd: the server user may not be allowed into ours (root's home, pytest's basetemp).
    done = subprocess.run(command, capture_output=True, text=True, cwd="/", check=False)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    return done
