"""The layers around a worker process, from the kernel's side, and the order they go on in.

Every layer must hold on its own against arbitrary CPython code (the restricted compiler is
assumed bypassed), so each is applied and tested separately:

    process       one fresh process per job, forked by its keeper (the zygote's child),
                  killed with it; its CPU budget and usage are the keeper's, from the kernel
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

import os
import resource
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


def isolate(plan: Plan) -> None:
    """In the zygote's fresh child, the worker's keeper-to-be: apply the layers that need a
    new process and hold for the worker it will fork (keeper.py).

    It becomes `nobody` (when started as root), asks to die with the zygote, enters the new
    namespaces (when the kernel allows them: its next child, the worker, is then pid 1 of a
    new pid namespace, while the keeper stays outside it), and is not dumpable. Changing
    credentials clears the parent-death request, and entering a user namespace is such a
    change, so the request is made again after the last of them, and the parent checked
    after each: a keeper that outlived its zygote would keep its worker alive too."""
    parent = os.getppid()
    _drop_root()
    _die_with(parent)
    kernel.no_new_privs()
    if plan.namespaces:
        namespaces.enter()
        _die_with(parent)
    kernel.set_dumpable(False)


def _die_with(parent: int) -> None:
    """Arm the parent-death signal, then make sure the parent did not die before it."""
    kernel.die_with_parent()
    if os.getppid() != parent:  # the zygote died before we asked
        os._exit(1)


def lock_down(job_fd: int, budget_fd: int, plan: Plan) -> None:
    """In the worker, before its job: only the job socket (fd 0) and the pipe to its keeper
    (fd 1, closed before the solution runs), no capabilities, not dumpable, no file system
    (Landlock), no new descriptor. It dies with its keeper; it never changes credentials
    after asking (capabilities only shrink), so the request stands."""
    os.dup2(job_fd, 0, inheritable=False)
    os.dup2(budget_fd, 1, inheritable=False)
    os.closerange(2, 65536)
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
    # The keeper holds the exact budget from outside (keeper.py); this is the backstop should
    # the keeper fail, a whole second past the budget: it counts the worker's start-up too,
    # and in whole seconds, so at the budget itself it could stop a run short of it.
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
