"""The zygote: a small process that forks grading workers on request.

Started once by the parent (`python -I -m bot.grading.zygote FD [DISABLED]`, an environment
with no secrets, one inherited descriptor: FD, its control socket). At start it imports the
sandbox and the modules solutions may import, runs one warm-up solution, and probes which
isolation layers the kernel allows (sandbox/isolation.py), then reports `ready` with every
layer and, for a missing one, why. Then it serves:

    parent -> zygote   b"fork" with one descriptor attached (SCM_RIGHTS): the worker's socket
    zygote -> parent   {"event": "forked", "pid": N}
    parent -> zygote   b"kill N"
    zygote -> parent   {"event": "exit", "pid": N, "code": C, "signal": S, "cpu_ms", "maxrss_kb",
                        "over"}

Forking here rather than in the bot keeps the event loop's process free of forks (and of
their threads-and-locks hazards) and makes a worker cost a fork of a warm interpreter
instead of a Python start-up. The zygote's child N is the worker's keeper (keeper.py): it
enters fresh namespaces (where the kernel allows them), forks the worker (pid 1 inside them),
holds its CPU budget from outside, and ends as the worker ended, so N's exit is the worker's;
the worker's usage, the kernel's figures, comes on a pipe N writes before it ends ("cpu_ms",
"maxrss_kb", and "over": stopped at its budget). The zygote reaps N, so it alone may signal
it: a pid is never killed after it could have been reused. SOCK_SEQPACKET keeps each request and its
descriptor together. A worker dies with its keeper, the keeper with the zygote, and the
zygote with the parent. The zygote is not dumpable: no worker, even one of the same user
outside every namespace, may read or write its memory.
"""

from __future__ import annotations

import gc
import json
import os
import select
import signal
import socket
import sys
import traceback
from collections.abc import Iterator
from typing import Any

from bot.grading.sandbox import MEMORY_EXIT, isolation, keeper, kernel
from bot.grading.sandbox.drill import drill
from bot.grading.sandbox.harness import execute
from bot.grading.sandbox.policy import preload

JOB_LIMIT = 64 * 1024 * 1024
NICENESS = 10
REAP_INTERVAL = 1.0  # a backstop: SIGCHLD wakes the loop
PR_SET_CHILD_SUBREAPER = 36


class Zygote:
    def __init__(self, control: socket.socket, disabled: frozenset[str]) -> None:
        self.control = control
        self.live: dict[int, int] = {}  # keeper pid -> the read end of its report pipe
        kernel.die_with_parent()
        kernel.set_dumpable(False)  # no worker of our user may open our /proc/<pid>/mem
        kernel.prctl(PR_SET_CHILD_SUBREAPER, 1)  # an orphaned worker is ours to reap
        # Workers inherit a lower priority: a flood of submissions takes the spare CPU, never
        # the bot's own (its event loop answers everyone else meanwhile).
        os.nice(NICENESS)
        preload()
        warm_up()
        self.plan = isolation.probe(disabled)
        self.base = isolation.address_space_now()
        # SIGCHLD writes to this pipe, so select() wakes the moment a worker exits.
        self.wakeup, wakeup_w = os.pipe()
        os.set_blocking(wakeup_w, False)
        signal.set_wakeup_fd(wakeup_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)

    def serve(self) -> None:
        self._send({"event": "ready", "layers": self.plan.report(), "pid": os.getpid()})
        while True:
            watched: list[Any] = [self.control, self.wakeup]
            readable, _, _ = select.select(watched, [], [], REAP_INTERVAL)
            if self.wakeup in readable:
                os.read(self.wakeup, 4096)
            self._reap()
            if self.control in readable and not self._handle(
                *socket.recv_fds(self.control, 256, 1)
            ):
                return

    def _handle(self, message: bytes, fds: list[int], *_: Any) -> bool:
        if not message:
            return False  # the parent is gone
        if message == b"fork" and len(fds) == 1:
            self._send({"event": "forked", "pid": self._fork(fds[0])})
        elif message.startswith(b"kill "):
            pid = int(message.split()[1])
            if pid in self.live:  # not yet reaped, so the pid is still ours
                # Its keeper is asked: it kills its worker and reaps it, so the usage it
                # reports counts the time the worker ran.
                os.kill(pid, signal.SIGTERM)
        for fd in fds:
            os.close(fd)
        return True

    def _fork(self, job_fd: int) -> int:
        """Fork a keeper, which isolates itself and forks the worker (keeper.py)."""
        report, report_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 70
            try:
                keeper.block_signals()
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                self.control.close()
                os.close(report)
                isolation.isolate(self.plan)
                keeper.run(job_fd, report_w, lambda budget: work(job_fd, budget, self.plan,
                                                                 self.base))  # fmt: skip
                code = 0  # (the worker, done; the keeper never returns)
            finally:
                os._exit(code)
        os.close(report_w)
        self.live[pid] = report
        return pid

    def _reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            report = self.live.pop(pid, None)
            if report is None:
                continue  # an orphan handed to us as subreaper: reaped, nothing to tell
            self._send({
                "event": "exit", "pid": pid,
                "code": os.waitstatus_to_exitcode(status),
                "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            } | _usage(report))  # fmt: skip

    def _send(self, event: dict[str, Any]) -> None:
        self.control.send(json.dumps(event).encode())


def _usage(report: int) -> dict[str, Any]:
    """The worker's usage as its keeper wrote it before ending: the kernel's figures for CPU
    time since the job arrived and peak memory, and whether the keeper stopped it for CPU.
    A keeper that ended without writing (killed) leaves them unknown."""
    try:
        os.set_blocking(report, False)
        data = os.read(report, 4096)
    except OSError:
        data = b""
    finally:
        os.close(report)
    try:
        said = json.loads(data)
    except ValueError:
        return {"cpu_ms": None, "maxrss_kb": None, "over": False}
    return {"cpu_ms": said["cpu_ms"], "maxrss_kb": said["maxrss_kb"], "over": said["over"]}


WARM_UP = """
import math
class Box:
    def __init__(self, v):
        self.v = v
def f(xs, k=1):
    total = 0
    for i, (a, b) in enumerate(zip(xs, xs[1:])):
        total += a * b + Box(i).v
    print(total, [x for x in xs if x % 2], {'k': k})
    return sorted(xs)[::-1]
"""


def warm_up() -> None:
    """Run a small solution once, then freeze what exists.

    Every worker is a fork of this process: whatever the first compile and run initialise
    (lazy imports, caches) is then already there, and `gc.freeze` keeps the collector from
    touching, and so copying, the zygote's objects in every worker.
    """
    rehearse()
    gc.collect()
    gc.freeze()


def rehearse() -> None:
    job = {"mode": "grade", "code": WARM_UP, "function": "f", "tests": ["[[3, 1, 2]]"],
           "time_limit": 1, "output_cap": 100, "return_args": True}  # fmt: skip
    execute(job, lambda _: None)


def work(job_fd: int, budget_fd: int, plan: isolation.Plan, base: int) -> None:
    """A worker's whole life: lock down, read one job, limit, tell its keeper the CPU budget,
    seal, run it, report, exit."""
    isolation.lock_down(job_fd, budget_fd, plan)
    rehearse()  # take the copy-on-write faults now, while waiting, not during the job
    sock = socket.socket(fileno=0)
    job = json.loads(_read_line(sock))
    seconds = float(job["time_limit"])
    isolation.limit_job(seconds, base + int(job["memory_mb"]) * 1024 * 1024)
    keeper.tell(1, seconds)  # the last word of the harness's own before the solution's code
    isolation.seal(plan)

    def emit(event: dict[str, Any]) -> None:
        sock.sendall(json.dumps(event).encode() + b"\n")

    try:
        if job["mode"] == "exec":
            drill(job, emit)
        else:
            execute(job, emit, _inputs(sock, int(job.get("count", 0))))
    except MemoryError:  # outside the solution's own code: exiting needs no memory
        os._exit(MEMORY_EXIT)
    sock.shutdown(socket.SHUT_RDWR)


def _inputs(sock: socket.socket, count: int) -> Iterator[str]:
    """Each test's input, read when the harness is ready to run it. The parent sends the
    first once the code has compiled and each next one once the previous test's result has
    arrived, so the worker never holds a later test's data."""
    for _ in range(count):
        yield _read_line(sock).decode()


def _read_line(sock: socket.socket, limit: int = JOB_LIMIT) -> bytes:
    """One line from the parent, which never sends more than the line asked for."""
    chunks: list[bytes] = []
    size = 0
    while not chunks or not chunks[-1].endswith(b"\n"):
        chunk = sock.recv(1 << 16)
        if not chunk or size > limit:
            raise SystemExit(71)
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def main() -> None:
    control = socket.socket(fileno=int(sys.argv[1]))
    disabled = frozenset(filter(None, sys.argv[2].split(","))) if len(sys.argv) > 2 else frozenset()
    try:
        Zygote(control, disabled).serve()
    except (BrokenPipeError, ConnectionResetError):
        pass  # the parent went away: so do we (and, by PDEATHSIG, every worker)
    except Exception:
        traceback.print_exc(file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
