"""The keeper: a worker's parent, outside everything the worker can reach, and the one witness
of its usage that the bot believes.

Every worker is forked by its keeper (the zygote's child, which isolation.py has already
dropped to `nobody` and, with namespaces, moved into the worker's new namespaces; the
keeper itself stays outside the new pid namespace). From then on the worker runs hostile code
and its report is only its word; the keeper holds what the worker cannot forge:

- **The CPU budget, enforced from outside.** Once the worker has read its job, and before any
  of the solution's code runs, the harness writes the keeper the job's CPU budget on a pipe
  (`tell`) and closes it: that message is still the harness's own. The keeper then reads the
  worker's CPU clock from the kernel and stops the worker the moment it has used its budget
  since. Its sleeps are in wall time, never longer than the CPU time left (a process cannot
  use more CPU than wall time), so it overshoots by no more than a wake-up's latency, and
  it costs nothing while the worker waits. A solution that patches `time` or `resource` in
  its own process changes what it reports, never this.
- **Usage from the kernel.** The keeper reaps the worker with `wait4`, so the CPU time
  (counted from the job's arrival: the worker's start-up is not the solution's) and the peak
  resident memory it reports are the kernel's figures. It writes them to the zygote on its
  report pipe, with whether it stopped the worker for CPU, and then ends as the worker ended
  (same exit status, same signal), so its zygote learns both.

The zygote asks a keeper to stop its worker with SIGTERM: the keeper kills the worker and
reaps it, so the time the worker ran is counted too. Signals reach the keeper through a
wake-up pipe and are blocked until the handlers are in place, so none is lost to a race.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import select
import signal
import struct
import time
from collections.abc import Callable
from typing import NoReturn

WATCHED = (signal.SIGCHLD, signal.SIGTERM)
BUDGET = struct.Struct("=d")  # the harness's one message: CPU seconds, a C double
WORKER_FDS = (0, 1)  # the worker keeps its job socket as 0 and the budget pipe as 1
SHORTEST_WAIT = 0.0005  # seconds: below this a wake-up costs more than it can save
CPUCLOCK_SCHED = 2


def block_signals() -> None:
    """Hold SIGTERM and SIGCHLD pending from the keeper's first instruction (in the zygote's
    fresh child) until its handlers are installed: a stop asked for early is not lost, and
    does not kill the keeper before it could kill its worker."""
    signal.pthread_sigmask(signal.SIG_BLOCK, WATCHED)


def run(job_fd: int, report_fd: int, work: Callable[[int], None]) -> None:
    """Fork the worker, which runs `work(budget_fd)` and returns; keep it, and never return.

    In the worker, `budget_fd` is the write end of the budget pipe (the harness `tell`s it)."""
    budget_r, budget_w = os.pipe()
    wake_r, wake_w = os.pipe()
    stop = _Stop()
    signal.signal(signal.SIGTERM, stop.handler)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # (the default would discard it)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    worker = os.fork()
    if worker == 0:
        signal.set_wakeup_fd(-1)
        for number in WATCHED:
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, WATCHED)
        for fd in (budget_r, wake_r, wake_w, report_fd):
            os.close(fd)
        work(budget_w)
        return
    stop.worker = worker
    _close_all_but({budget_r, wake_r, wake_w, report_fd})
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, WATCHED)  # a pending stop is handled now
    _end_as(_watch(worker, budget_r, wake_r, stop), report_fd)


def tell(budget_fd: int, seconds: float) -> None:
    """In the worker, before the solution runs: hand the keeper the job's CPU budget, and
    close the pipe. A keeper already gone is a broken pipe, and the worker ends with it."""
    try:
        os.write(budget_fd, BUDGET.pack(seconds))
    finally:
        os.close(budget_fd)


class _Stop:
    """SIGTERM from the zygote: kill the worker (our unreaped child, so the pid is still it)."""

    def __init__(self) -> None:
        self.worker = 0
        self.asked = False

    def handler(self, *_: object) -> None:
        self.asked = True
        if self.worker:
            _kill(self.worker)


class _Ended:
    """How the worker ended, as the kernel told its keeper."""

    def __init__(self, status: int, usage: resource.struct_rusage, base: float | None,
                 over: bool) -> None:  # fmt: skip
        self.status, self.over = status, over
        total = usage.ru_utime + usage.ru_stime
        self.cpu_ms = round(max(total - (base or 0.0), 0.0) * 1000, 3)
        self.maxrss_kb = usage.ru_maxrss


def _watch(worker: int, budget_fd: int, wake_fd: int, stop: _Stop) -> _Ended:
    """Wait for the worker to end, stopping it once it has used its budget."""
    if stop.asked:
        _kill(worker)
    base: float | None = None
    deadline: float | None = None
    over = False
    watched = [wake_fd, budget_fd]
    while True:
        pid, status, usage = os.wait4(worker, os.WNOHANG)
        if pid:
            stop.worker = 0  # reaped: its pid may be anyone's now
            return _Ended(status, usage, base, over)
        used = _cpu(worker)
        left = None if deadline is None or used is None else deadline - used
        if left is not None and left <= 0:
            _kill(worker)
            over, deadline, left = True, None, None
        if used is None:  # it has ended: SIGCHLD is on its way, wait4 will see it
            timeout: float | None = SHORTEST_WAIT
        else:
            timeout = None if left is None else max(left, SHORTEST_WAIT)
        readable, _, _ = select.select(watched, [], [], timeout)
        if wake_fd in readable:
            os.read(wake_fd, 4096)
        if budget_fd in readable:
            seconds = _budget(budget_fd)
            watched.remove(budget_fd)
            base = _cpu(worker)
            if seconds is not None and base is not None:
                deadline = base + seconds


def _budget(fd: int) -> float | None:
    """The harness's budget message, or None if the worker ended (or lied) before it."""
    data = os.read(fd, BUDGET.size + 1)
    os.close(fd)
    if len(data) != BUDGET.size:
        return None
    (seconds,) = BUDGET.unpack(data)
    return seconds if 0 < seconds < 1e6 else None


def _cpu(pid: int) -> float | None:
    """Process `pid`'s CPU time in seconds, read from the kernel (its CPU-time clock); None
    once it has ended. It is our child and not yet reaped, so the pid is still it."""
    try:
        return time.clock_gettime(((~pid) << 3) | CPUCLOCK_SCHED)
    except OSError:
        return None


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # it ended, and was reaped, meanwhile
        os.kill(pid, signal.SIGKILL)


def _close_all_but(kept: set[int]) -> None:
    start = 0
    for fd in sorted(kept):
        os.closerange(start, fd)
        start = fd + 1
    os.closerange(start, 65536)


def _end_as(ended: _Ended, report_fd: int) -> NoReturn:
    """Tell the zygote the worker's usage, then end as the worker ended."""
    status = ended.status
    report = {"cpu_ms": ended.cpu_ms, "maxrss_kb": ended.maxrss_kb, "over": ended.over}
    with contextlib.suppress(OSError):
        os.write(report_fd, json.dumps(report).encode())
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig != signal.SIGKILL:
            signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, (sig,))
        os.kill(os.getpid(), sig)
    os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
