"""The layers around a worker process, from the kernel's side. Each is optional but the first.

1. Resource limits (always): CPU seconds, address space, no file writes, no new processes,
   no core dumps, and no file descriptor but the job's socket (moved to fd 0, limit 1).
2. A fresh user + network namespace (`unshare`), entered once by the zygote so every worker
   it forks has no network interface but a down loopback. Needs unprivileged user namespaces.
3. A seccomp filter (libseccomp through pyseccomp), loaded in each worker before it reads its
   job: no sockets, exec, fork/clone, ptrace, signals to others, namespaces or mounts, and no
   changing files by path (unlink, rename, truncate, chmod ...): the descriptor limit already
   stops opening a file, and these calls need no descriptor, so they would otherwise reach the
   bot's own files, its database included. It also sets no_new_privs. Needs libseccomp.

Layers 2 and 3 are probed in the zygote at start and reported to the parent, which logs them
and shows them in `studybot doctor`. Denied calls fail with EPERM (ENOSYS for clone3, so libc
falls back to clone and is refused there) instead of killing the worker, so a solution that
tries gets a Python exception and a verdict, not a mystery crash.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import resource
import signal
from typing import Any

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
PR_SET_PDEATHSIG = 1

DENIED_SYSCALLS = (
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
    "execve", "execveat", "fork", "vfork", "clone", "unshare", "setns", "ptrace",
    "kill", "tkill", "tgkill", "mount", "umount2", "pivot_root", "chroot",
    "process_vm_readv", "process_vm_writev", "bpf", "userfaultfd", "perf_event_open",
    "keyctl", "add_key", "request_key", "personality", "open_by_handle_at",
    # files changed by path, no descriptor needed
    "truncate", "unlink", "unlinkat", "rename", "renameat", "renameat2", "rmdir", "mkdir",
    "mkdirat", "link", "linkat", "symlink", "symlinkat", "chmod", "fchmodat", "chown",
    "lchown", "fchownat", "utime", "utimes", "utimensat", "futimesat", "mknod", "mknodat",
    "setxattr", "lsetxattr", "removexattr", "lremovexattr", "chdir", "chroot",
)  # fmt: skip

_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def die_with_parent() -> None:
    """Be killed when the parent process exits (the zygote with the bot, a worker with it)."""
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def enter_namespaces() -> bool:
    """Move this (single-threaded) process into a new user and network namespace."""
    return bool(_libc.unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0)


def load_seccomp_library() -> Any | None:
    """pyseccomp, if it and libseccomp are present (imported in the zygote, used in workers)."""
    try:
        import pyseccomp  # type: ignore[import-untyped]
    except (ImportError, OSError, RuntimeError):
        return None
    return pyseccomp


def build_filter(seccomp: Any | None) -> Any | None:
    """The filter, built once in the zygote and loaded by each worker; None if unavailable."""
    if seccomp is None:
        return None
    try:
        return _build_filter(seccomp)
    except Exception:  # any failure of the foreign library means: layer off
        return None


def _build_filter(seccomp: Any) -> Any:
    f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in DENIED_SYSCALLS:
        f.add_rule(seccomp.ERRNO(errno.EPERM), name)
    f.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    return f


def lock_down(job_fd: int, syscall_filter: Any | None) -> None:
    """In a freshly forked worker: keep only the job socket (as fd 0), die with the zygote,
    refuse new descriptors, and load the syscall filter."""
    if job_fd != 0:
        os.dup2(job_fd, 0, inheritable=False)
    os.closerange(1, 65536)
    die_with_parent()
    resource.setrlimit(resource.RLIMIT_NOFILE, (1, 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if syscall_filter is not None:
        syscall_filter.load()


def limit_job(cpu_seconds: float, address_space: int) -> None:
    """The job's own limits, set once it is known (a worker is forked before its job)."""
    cpu = max(1, int(cpu_seconds + 0.999))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))  # SIGXCPU, then SIGKILL
    resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))


def address_space_now() -> int:
    """This process's virtual size, the base a job's memory allowance is added to."""
    with open("/proc/self/statm", encoding="ascii") as f:  # noqa: PTH123 (no pathlib in workers)
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
