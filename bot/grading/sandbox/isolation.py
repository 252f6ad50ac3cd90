"""The layers around a worker process, from the kernel's side, and the order they go on in.

Every layer must hold on its own against arbitrary CPython code (the restricted compiler is
assumed bypassed), so each is applied and tested separately:

    process       one fresh process per job, forked from the zygote, killed with it
    rlimits       CPU seconds, address space, no file writes, no processes, no core dumps,
                  one descriptor (its socket, as fd 0)
    unprivileged  never root: a zygote started as root drops each worker to `nobody`; no
                  capabilities, no_new_privs, not dumpable
    namespaces    its own user, mount, pid, network and IPC namespaces, and an empty
                  read-only root (namespaces.py)
    landlock      no file access of any kind, no TCP, no signals out (landlock.py)
    seccomp       an allowlist of system calls, loaded once the job is read (syscalls.py)

The zygote probes which layers the kernel allows (`probe`), once, at start, and reports
them with the reason for each missing one; the parent logs them, `doctor` shows them, and
strict mode refuses to grade without all of them.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
from dataclasses import dataclass, field

from bot.grading.sandbox import kernel, landlock, namespaces, syscalls

NOBODY = 65534
LAYERS = ("process", "rlimits", "unprivileged", "namespaces", "landlock", "seccomp")


@dataclass(frozen=True, slots=True)
class Plan:
    """What the zygote found it can apply to every worker."""

    namespaces: bool
    landlock_abi: int
    bpf: bytes | None  # the compiled seccomp allowlist
    missing: dict[str, str] = field(default_factory=dict)  # layer -> why it is off

    def report(self) -> dict[str, str]:
        """Every layer by name: "" when active, else the reason it is not."""
        return {name: self.missing.get(name, "") for name in LAYERS}


def probe(disabled: frozenset[str] = frozenset()) -> Plan:
    """Find out which layers this kernel allows (in the zygote, before serving).

    `disabled` turns layers off on purpose: the escape drill uses it to show that the
    others hold without them."""
    missing: dict[str, str] = {}
    ns = "namespaces" not in disabled and _namespaces_work(missing)
    abi = 0 if "landlock" in disabled else landlock.abi()
    if not abi:
        missing["landlock"] = (
            "turned off"
            if "landlock" in disabled
            else ("the kernel has no Landlock or refuses it (needs Linux 5.13+, lsm=landlock)")
        )
    bpf = None if "seccomp" in disabled else _seccomp_program(missing)
    if "seccomp" in disabled:
        missing["seccomp"] = "turned off"
    if "namespaces" in disabled:
        missing["namespaces"] = "turned off"
    return Plan(ns, abi, bpf, missing)


def _namespaces_work(missing: dict[str, str]) -> bool:
    why = namespaces.available(_drop_root)
    if why:
        missing["namespaces"] = f"the kernel refuses them ({why}); containers need unshare"
    return not why


def _seccomp_program(missing: dict[str, str]) -> bytes | None:
    try:
        import pyseccomp  # type: ignore[import-untyped]
    except (ImportError, OSError, RuntimeError) as exc:
        missing["seccomp"] = f"libseccomp or pyseccomp is missing ({exc})"
        return None
    try:
        return syscalls.build(pyseccomp)
    except Exception as exc:  # any failure of the foreign library means: layer off
        missing["seccomp"] = f"the filter could not be built ({exc})"
        return None


def _drop_root() -> None:
    """A root zygote's worker becomes `nobody`: a file of root's is then closed to it even
    if every other layer failed. (The kernel makes a process non-dumpable when its ids
    change; it is made dumpable again only so it can write its own namespace maps.)"""
    if os.geteuid() != 0:
        return
    os.setgroups([])
    os.setresgid(NOBODY, NOBODY, NOBODY)
    os.setresuid(NOBODY, NOBODY, NOBODY)
    kernel.set_dumpable(True)


def isolate(plan: Plan) -> int:
    """In the zygote's fresh child: apply the layers that need a new process.

    With namespaces, this child stays outside them as the worker's keeper: it forks the
    worker (pid 1 of the new pid namespace) and returns its pid, then only waits for it.
    Without, it is the worker itself and returns 0."""
    kernel.die_with_parent()
    _drop_root()
    kernel.no_new_privs()
    if not plan.namespaces:
        return 0
    namespaces.enter()
    kernel.set_dumpable(False)
    return os.fork()


def keep(worker: int) -> None:
    """The keeper's whole life: hold no descriptor, wait, and end as the worker ended, so
    the zygote reaps the keeper and learns the worker's exit code or signal and usage.

    The zygote stops a worker by sending its keeper SIGTERM: the keeper kills the worker and
    reaps it, so the worker's CPU time is in the keeper's usage (killed itself, the keeper
    would leave the worker to die unreaped by it, and the time it ran would be lost)."""
    signal.signal(signal.SIGTERM, lambda *_: _kill_quietly(worker))
    os.closerange(0, 65536)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    _, status = os.waitpid(worker, 0)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig != signal.SIGKILL:
            signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    os._exit(os.waitstatus_to_exitcode(status) & 0xFF)


def _kill_quietly(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # it ended, and was reaped, meanwhile
        os.kill(pid, signal.SIGKILL)


def lock_down(job_fd: int, plan: Plan) -> None:
    """In the worker, before its job: only the job socket (fd 0), no capabilities, not
    dumpable, no file system (Landlock), one descriptor at most."""
    if job_fd != 0:
        os.dup2(job_fd, 0, inheritable=False)
    os.closerange(1, 65536)
    kernel.die_with_parent()
    kernel.set_dumpable(False)
    kernel.no_new_privs()
    if plan.landlock_abi:
        landlock.deny_all(plan.landlock_abi)
    kernel.drop_capabilities()
    resource.setrlimit(resource.RLIMIT_NOFILE, (1, 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def limit_job(cpu_seconds: float, address_space: int) -> None:
    """The job's own limits, set once it is known (a worker is forked before its job)."""
    # Soft and hard limits alike: the kernel's SIGKILL comes at the limit. (SIGXCPU, sent at a
    # lower soft limit, is ignored by a pid namespace's first process, as the worker is.)
    # The harness holds the exact budget between tests; this is the backstop for a test
    # that never returns, a whole second past the budget: it counts the worker's start-up
    # too, and in whole seconds, so at the budget itself it could stop a run short of it.
    cpu = int(cpu_seconds + 0.999) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))


def seal(plan: Plan) -> None:
    """Load the system-call allowlist: the last layer, once the job is read and limited."""
    if plan.bpf is not None:
        kernel.load_bpf(plan.bpf)


def address_space_now() -> int:
    """This process's virtual size, the base a job's memory allowance is added to."""
    with open("/proc/self/statm", encoding="ascii") as f:  # noqa: PTH123 (no pathlib in workers)
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
