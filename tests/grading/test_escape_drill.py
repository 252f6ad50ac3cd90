"""The escape drill: plain Python in a grading worker, judged from outside.

The restricted compiler is assumed bypassed. `payloads/corpus.py` runs through the real
`studybot sandbox exec` CLI with real builtins and ctypes, and tries what an attacker would:
read, write, truncate, create, rename or remove the bot's files (a database and a `.env`
with a token), see, signal, trace or read other processes, reach the network, make
processes, threads or executable memory, raise its limits, and call the kernel's rarer
doors. What it reports of itself is only a hint; each class is judged from outside: every
class has its own files, sentinel process or listener, checked after the runs.

Configurations: every layer; namespaces turned off (seccomp and Landlock alone); namespaces
refused by the kernel, as Docker's default seccomp profile refuses `unshare`; seccomp
turned off (namespaces and Landlock alone). Each runs the corpus twice, once as is and
once after closing fd 0, the worker's only descriptor, so the descriptor limit is not
what stops a payload; that second run cannot report and is judged from outside alone.

So that the layers, not the drop to `nobody`, are what stands between a worker and the
host, the host's files are open to every user (0666 in 0777 directories, as if the bot
ran as the worker's own user), and the sentinels run as the worker's user.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

PAYLOADS = Path(__file__).with_name("payloads")
CORPUS = (PAYLOADS / "corpus.py").read_text(encoding="utf-8")
NOBODY = 65534

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or os.uname().machine != "x86_64",
    reason="the corpus uses x86_64 system-call numbers",
)

CONFIGS: dict[str, tuple[str, ...]] = {
    "all-layers": (),
    "without-namespaces": ("--without", "namespaces"),
    "namespaces-refused": (),  # run under payloads/refuse_namespaces.py
    "without-seccomp": ("--without", "seccomp"),
    # Landlock (with the limits and the dropped user) alone: neither namespaces nor seccomp.
    "landlock-only": ("--without", "namespaces", "--without", "seccomp"),
}
FILE_CLASSES = ("read", "write", "truncate", "create", "rename", "unlink", "metadata")

# Stopped by seccomp alone: with it turned off, namespaces and Landlock let these through,
# and none of them reaches anything outside the worker (the outside checks still hold):
# a nested user namespace (and so capabilities, chroot and keys inside it only), a
# key in the worker's own namespace's keyring, PTRACE_TRACEME (its keeper, outside its
# pid namespace, becomes its tracer), the LDT, personality, dumpability, executable memory,
# and setuid(0), which is the uid it already has in its namespace (its capabilities are gone).
SECCOMP_ONLY = frozenset({
    "ptrace.traceme", "kernel.keyctl", "kernel.add_key", "kernel.landlock_new_ruleset",
    "kernel.modify_ldt", "kernel.personality", "kernel.prctl_dumpable",
    "kernel.setuid_root", "kernel.unshare_user", "kernel.unshare_net", "exec_memory.mmap_rwx",
    "exec_memory.mprotect_exec", "exec_memory.pkey_mprotect",
})  # fmt: skip
# Landlock with the limits and the dropped user, but neither namespaces nor seccomp: what is
# stopped by those two only. Inside the worker: the SECCOMP_ONLY calls (but setuid, which the
# dropped user stops), file metadata by path (stat, name_to_handle_at: Landlock governs
# opening, not looking), and kill(-1), which returns 0 having signalled nothing (the sentinels
# are checked from outside). Outside it: UDP and Unix sockets bound to a path (Landlock ABI 7
# has no rule for them), see `LANDLOCK_NETWORK_GAPS`. Namespaces or seccomp, each alone, stop
# all of these.
LANDLOCK_ONLY = (SECCOMP_ONLY - {"kernel.setuid_root"}) | {
    "read.stat", "read.name_to_handle_at", "signal.kill_all",
}  # fmt: skip
LANDLOCK_NETWORK_GAPS = {"udp", "unix_path"}
EXEMPT = {"without-seccomp": SECCOMP_ONLY, "landlock-only": LANDLOCK_ONLY}
# A refusal is an errno, or one of these (Python's own words for a refused call).
OTHER_REFUSALS = ("RuntimeError: can't start new thread",)


@dataclass
class Host:
    """One configuration's share of the host: files, sentinels and listeners to judge by."""

    root: Path
    canary: str
    marker: str
    sentinels: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    held: Path | None = None
    held_fd: int = -1
    listeners: dict[str, socket.socket] = field(default_factory=dict)
    snapshot: dict[str, Any] = field(default_factory=dict)

    def target(self, *, close0: bool) -> dict[str, Any]:
        t: dict[str, Any] = {name: str(self.root / name) for name in FILE_CLASSES}
        tcp = self.listeners["tcp"].getsockname()[1]
        udp = self.listeners["udp"].getsockname()[1]
        t.update(marker=self.marker, close0=close0, tcp=tcp, udp=udp, host_ip=host_ip(),
                 abstract=self.listeners["abstract"].getsockname()[1:].decode(),
                 unix_path=self.listeners["unix_path"].getsockname(), held_fd=self.held_fd,
                 pids={name: p.pid for name, p in self.sentinels.items()})  # fmt: skip
        return t


def host_ip() -> str:
    """This machine's address on its default route (no packet is sent), or loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def open_to_all(path: Path) -> None:
    """Let the worker's user reach `path`: only the layers are then in its way."""
    for parent in [path, *path.parents]:
        mode = parent.stat().st_mode
        if parent.stat().st_uid == os.getuid() and not mode & 0o001:
            parent.chmod(mode | 0o001)  # search only: nobody may list a parent


def make_host(root: Path, name: str) -> Host:
    canary = f"canary-{name}-{secrets.token_hex(8)}"
    host = Host(root, canary, f"/tmp/studybot-drill-{name}-{secrets.token_hex(4)}")
    open_to_all(root)
    root.chmod(0o777)
    for cls in FILE_CLASSES:
        folder = root / cls
        folder.mkdir(mode=0o777)
        folder.chmod(0o777)
        (folder / "studybot.sqlite3").write_bytes(b"SQLite format 3\0" + canary.encode() * 4)
        (folder / ".env").write_text(f"DISCORD_TOKEN={canary}\n", encoding="ascii")
        for file in folder.iterdir():
            file.chmod(0o666)
    host.held = root / "held.txt"
    host.held.write_text("held by a sentinel\n", encoding="ascii")
    host.held.chmod(0o666)
    host.held_fd = os.open(host.held, os.O_RDWR)
    for role in ("signal", "environ", "fdwrite", "ptrace"):
        host.sentinels[role] = sentinel(canary, host.held_fd)
    host.listeners = listeners(root)
    host.snapshot = snapshot(host)
    return host


def sentinel(canary: str, held_fd: int) -> subprocess.Popen[bytes]:
    """A process of the worker's own user, with a token in its environment and a file open."""
    user = NOBODY if os.geteuid() == 0 else None
    return subprocess.Popen(["sleep", "600"], env={"PATH": os.defpath, "DRILL_TOKEN": canary},
                            user=user, pass_fds=(held_fd,), start_new_session=True)  # fmt: skip


def listeners(root: Path) -> dict[str, socket.socket]:
    tcp = socket.create_server(("", 0), family=socket.AF_INET6, dualstack_ipv6=True)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind(b"\0studybot-drill-" + secrets.token_hex(8).encode())
    abstract.listen()
    unix_path = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix_path.bind(str(root / "bot.sock"))
    (root / "bot.sock").chmod(0o777)
    unix_path.listen()
    found = {"tcp": tcp, "udp": udp, "abstract": abstract, "unix_path": unix_path}
    for s in found.values():
        s.setblocking(False)
    return found


def snapshot(host: Host) -> dict[str, Any]:
    """Every file of every class: name, bytes, mode, mtime; and the folder itself."""
    state: dict[str, Any] = {}
    for cls in FILE_CLASSES:
        folder = host.root / cls
        files = {f.name: (f.read_bytes(), f.stat().st_mode, f.stat().st_mtime_ns)
                 for f in sorted(folder.iterdir())}  # fmt: skip
        state[cls] = (files, folder.stat().st_mode, folder.stat().st_mtime_ns)
    return state


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def report(self) -> dict[str, Any]:
        assert self.returncode == 0, self.stderr[-3000:]
        return json.loads(self.stdout)  # type: ignore[no-any-return]

    @property
    def results(self) -> dict[str, str]:
        lines = self.report["stdout"].splitlines()
        return dict(line.split("\t", 1) for line in lines if "\t" in line)


def run_cli(config: str, code: str, folder: Path, name: str) -> Run:
    path = folder / f"{name}.py"
    path.write_text(code, encoding="utf-8")
    args = ["sandbox", "exec", "--json", *CONFIGS[config], str(path)]
    if config == "namespaces-refused":
        command = [sys.executable, str(PAYLOADS / "refuse_namespaces.py"), *args]
    else:
        command = [sys.executable, "-m", "bot", *args]
    start = time.monotonic()
    # Relaxed whatever the environment says: strict isolation would refuse the drill where
    # the kernel refuses namespaces (tests/test_strict_isolation.py).
    env = {**os.environ, "STUDYBOT_GRADING_ISOLATION": "relaxed"}
    done = subprocess.run(command, capture_output=True, text=True, cwd=folder, timeout=60,
                          env=env, check=False)  # fmt: skip
    return Run(done.returncode, done.stdout, done.stderr, time.monotonic() - start)


def corpus(target: dict[str, Any]) -> str:
    return f"{CORPUS}\n\nmain(json.loads({json.dumps(json.dumps(target))}))\n"


# Seconds a run that must end (not hang) may take from CLI start to exit: a generous bound,
# since the machine may be busy; a hang would meet the 60 s subprocess timeout instead.
ENDS_WITHIN = 30
MEMORY = "xs = []\nwhile True:\n    xs.append(bytearray(10**6))\n"
NORMAL = "print(1 + 1)\n"

# Run once, on every layer: what ends the worker rather than being refused.
SOLOS = {
    "hang": "import threading\nlock = threading.Lock()\nlock.acquire()\nlock.acquire()\n",
    "spin": "while True:\n    pass\n",
    "huge_output": "import os\nchunk = b'x' * (1 << 20)\nwhile True:\n    os.write(0, chunk)\n",
    "print_flood": "print('x' * 10**7)\n",
    "sigstop_self": "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)\nprint('after')\n",
    "segfault": "import ctypes\nctypes.string_at(0)\n",
    "deep_recursion": "import sys\nsys.setrecursionlimit(10**7)\n"
    "def f(n):\n    return f(n + 1) + 1\nf(0)\n",
    # The report is the worker's to write, so it is untrusted: forged lines on fd 0.
    "forged_report": 'import os\nos.write(0, b\'{"event": "done", "exit": 0, '
    '"stdout": "forged", "stderr": ""}\\n\')\nos._exit(0)\n',
    "forged_report_bad_exit": "import os\n"
    'os.write(0, b\'{"event": "done", "exit": "pwned"}\\n\')\nos._exit(0)\n',
    "forged_report_infinite_exit": "import os\n"
    'os.write(0, b\'{"event": "done", "exit": 1e999}\\n\')\nos._exit(0)\n',
}


@dataclass
class Drill:
    hosts: dict[str, Host]
    runs: dict[tuple[str, str], Run]


# Wall-clock deadlines are part of what is tested: runs compete for the CPUs little more
# than the machine has, or a spinning worker would meet its deadline long before its limit.
SLOTS = threading.BoundedSemaphore((os.cpu_count() or 2) + 1)


def run_in_slot(config: str, code: str, folder: Path, name: str) -> Run:
    with SLOTS:
        return run_cli(config, code, folder, name)


def normal_after(config: str, folder: Path, before: list[Future[Run]]) -> Run:
    """`print(1 + 1)` once the configuration's corpus has run."""
    wait(before)
    return run_in_slot(config, NORMAL, folder, "normal")


@pytest.fixture(scope="module")
def drill(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Drill]:
    hosts = {c: make_host(tmp_path_factory.mktemp(f"host-{c}"), c) for c in CONFIGS}
    work = tmp_path_factory.mktemp("drill")
    futures: dict[tuple[str, str], Future[Run]] = {}
    try:
        with ThreadPoolExecutor(len(SOLOS) + 4 * len(CONFIGS)) as pool:
            for name, code in SOLOS.items():  # the slowest first: they mostly wait
                futures["all-layers", name] = pool.submit(run_in_slot, "all-layers", code,
                                                          work, name)  # fmt: skip
            for c in CONFIGS:
                folder = work / c
                folder.mkdir()
                host = hosts[c]
                corpora = [
                    pool.submit(run_in_slot, c, corpus(host.target(close0=False)), folder, "c"),
                    pool.submit(run_in_slot, c, corpus(host.target(close0=True)), folder, "c0"),
                ]
                futures[c, "corpus"], futures[c, "corpus-close0"] = corpora
                futures[c, "memory"] = pool.submit(run_in_slot, c, MEMORY, folder, "memory")
                futures[c, "normal-after"] = pool.submit(normal_after, c, folder, corpora)
            runs = {key: future.result() for key, future in futures.items()}
        yield Drill(hosts, runs)
    finally:
        for host in hosts.values():
            for process in host.sentinels.values():
                process.kill()
                process.wait()
            for s in host.listeners.values():
                s.close()
            os.close(host.held_fd)


# --- what the worker reported of itself -----------------------------------------------------


def refused(result: str) -> bool:
    return bool(re.fullmatch(r"E[A-Z0-9]+", result)) or result.startswith(OTHER_REFUSALS)


@pytest.mark.parametrize("config", CONFIGS)
def test_the_layers_report_says_what_is_on(drill: Drill, config: str) -> None:
    layers = drill.runs[config, "corpus"].report["layers"]
    off = {name for name, layer in layers.items() if not layer["active"]}
    expected = {"all-layers": set(), "without-namespaces": {"namespaces"},
                "namespaces-refused": {"namespaces"}, "without-seccomp": {"seccomp"},
                "landlock-only": {"namespaces", "seccomp"}}  # fmt: skip
    assert off == expected[config], layers
    if config == "namespaces-refused":
        assert "refuses" in layers["namespaces"]["why"]
        assert "Operation not permitted" in layers["namespaces"]["why"]


@pytest.mark.parametrize("config", CONFIGS)
def test_every_payload_ran_and_was_refused(drill: Drill, config: str) -> None:
    report = drill.runs[config, "corpus"].report
    results = drill.runs[config, "corpus"].results
    names = re.findall(r'^@payload\("([^"]+)"\)', CORPUS, re.M)
    assert report["ended"] == "reported", report
    assert sorted(results) == sorted(names), report["stderr"]
    exempt = EXEMPT.get(config, frozenset())
    let_through = {n: r for n, r in results.items() if not refused(r) and n not in exempt}
    assert let_through == {}


@pytest.mark.parametrize("config", EXEMPT)
def test_without_a_layer_only_the_payloads_it_alone_stops_get_through(
    drill: Drill, config: str
) -> None:
    """Keeps SECCOMP_ONLY and LANDLOCK_ONLY honest: each is exactly what got through."""
    results = drill.runs[config, "corpus"].results
    assert {n for n, r in results.items() if not refused(r)} == EXEMPT[config]


@pytest.mark.parametrize("config", CONFIGS)
def test_the_run_without_fd_0_cannot_report(drill: Drill, config: str) -> None:
    report = drill.runs[config, "corpus-close0"].report
    assert report["ended"] == "ended before reporting", report
    assert report["stdout"] == ""


# --- judged from outside ----------------------------------------------------------------------


@pytest.mark.parametrize("cls", FILE_CLASSES)
@pytest.mark.parametrize("config", CONFIGS)
def test_the_bots_files_are_as_they_were(drill: Drill, config: str, cls: str) -> None:
    host = drill.hosts[config]
    assert snapshot(host)[cls] == host.snapshot[cls]


@pytest.mark.parametrize("config", CONFIGS)
def test_no_secret_leaves_the_worker(drill: Drill, config: str) -> None:
    canary = drill.hosts[config].canary
    for (c, _), run in drill.runs.items():
        if c == config:
            assert canary not in run.stdout + run.stderr


@pytest.mark.parametrize("config", CONFIGS)
def test_nothing_was_created_anywhere(drill: Drill, config: str) -> None:
    marker = Path(drill.hosts[config].marker)
    left = [p for p in (*marker.parent.glob(marker.name + "*"), Path("/dev/shm", marker.name))
            if p.exists()]  # fmt: skip
    assert left == []


@pytest.mark.parametrize("role", ["signal", "environ", "fdwrite", "ptrace"])
@pytest.mark.parametrize("config", CONFIGS)
def test_the_sentinels_live_untraced(drill: Drill, config: str, role: str) -> None:
    process = drill.hosts[config].sentinels[role]
    assert process.poll() is None
    status = Path(f"/proc/{process.pid}/status").read_text()
    assert re.search(r"^State:\s+S", status, re.M), status  # asleep, not stopped or traced
    assert re.search(r"^TracerPid:\s+0$", status, re.M), status


@pytest.mark.parametrize("config", CONFIGS)
def test_the_held_descriptor_was_not_written(drill: Drill, config: str) -> None:
    held = drill.hosts[config].held
    assert held is not None
    assert held.read_text() == "held by a sentinel\n"


def reached(listener: socket.socket, kind: str) -> bool:
    try:
        if kind == "udp":
            listener.recv(100)
        else:
            listener.accept()[0].close()
    except BlockingIOError:
        return False
    return True


@pytest.mark.parametrize("kind", ["tcp", "abstract", "unix_path", "udp"])
@pytest.mark.parametrize("config", CONFIGS)
def test_no_listener_was_reached(drill: Drill, config: str, kind: str) -> None:
    gap = config == "landlock-only" and kind in LANDLOCK_NETWORK_GAPS
    # With Landlock alone, these two are reached: asserted, so the comment above stays true.
    assert reached(drill.hosts[config].listeners[kind], kind) is gap


# --- limits, and the sandbox after --------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS)
def test_memory_past_the_limit_ends_as_a_memory_error(drill: Drill, config: str) -> None:
    run = drill.runs[config, "memory"]
    report = run.report
    assert report["exit"] != 0
    assert "MemoryError" in report["stderr"] or report["ended"].startswith("killed"), report
    assert run.seconds < ENDS_WITHIN


@pytest.mark.parametrize("config", CONFIGS)
def test_a_normal_run_works_after(drill: Drill, config: str) -> None:
    report = drill.runs[config, "normal-after"].report
    assert (report["exit"], report["stdout"], report["ended"]) == (0, "2\n", "reported")


DEADLINE = "killed at the wall-clock deadline"


@pytest.mark.parametrize(
    ("name", "ended"),
    [
        ("hang", {DEADLINE}),
        # The CPU limit (SIGKILL), or the deadline first on a machine short of CPU.
        ("spin", {"killed by signal 9", DEADLINE}),
        # Past the output limit the parent closes the socket and has the worker killed:
        # it ends by the kill, or by its own failed write if that comes first.
        ("huge_output", {"ended before reporting", "killed by signal 9", DEADLINE}),
        ("segfault", {"killed by signal 11"}),
    ],
)
def test_what_cannot_be_refused_is_ended(drill: Drill, name: str, ended: set[str]) -> None:
    run = drill.runs["all-layers", name]
    assert run.report["ended"] in ended, run.report
    assert run.seconds < ENDS_WITHIN


def test_a_print_flood_is_capped(drill: Drill) -> None:
    report = drill.runs["all-layers", "print_flood"].report
    assert report["ended"] == "reported"
    assert len(report["stdout"]) <= 4000


def test_sigstop_to_itself_is_refused(drill: Drill) -> None:
    report = drill.runs["all-layers", "sigstop_self"].report
    assert "PermissionError" in report["stderr"]
    assert report["stdout"] == ""


def test_deep_recursion_ends_the_worker_alone(drill: Drill) -> None:
    run = drill.runs["all-layers", "deep_recursion"]
    assert run.report["exit"] != 0
    assert run.seconds < ENDS_WITHIN


def test_a_forged_report_is_only_the_payloads_word(drill: Drill) -> None:
    # A well-formed forgery is shown as the payload's output: the drill's report is
    # the worker's own word, which is why every class above is judged from outside.
    report = drill.runs["all-layers", "forged_report"].report
    assert report["stdout"] == "forged"


@pytest.mark.parametrize("name", ["forged_report_bad_exit", "forged_report_infinite_exit"])
def test_a_forged_report_with_a_bad_exit_does_not_crash_the_cli(drill: Drill, name: str) -> None:
    run = drill.runs["all-layers", name]
    assert run.returncode == 0, run.stderr[-500:]
    assert json.loads(run.stdout)["exit"] == -1  # what the worker claimed is no exit status
