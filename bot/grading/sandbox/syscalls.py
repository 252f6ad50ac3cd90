"""The worker's system-call allowlist: default deny, each allowed call with its reason.

The filter is compiled to BPF once, in the zygote (libseccomp through pyseccomp), and loaded
by each worker with one `seccomp()` call after it has read its job and set its limits. From
then on the worker can compute, allocate memory, read its next test input and write its
report on fd 0, and exit. Nothing else: no file may be opened, created, truncated or looked
at (`open*`, `creat`, `ftruncate`, `stat*` are simply absent), no process made or signalled,
no socket, no namespace, no limit raised, no executable memory. Whatever code runs in the
worker, the restricted compiler included or not, the kernel refuses the rest with EPERM.

A worker's only descriptor is its socket, fd 0, and the calls that take a descriptor are
allowed on fd 0 alone (closing it is allowed: it only ends the report).
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from typing import Any

PROT_EXEC = 0x4

# (name, argument conditions, reason). A condition is (argument index, op, value[, mask]).
Condition = tuple[int, str, int] | tuple[int, str, int, int]


@dataclass(frozen=True, slots=True)
class Allowed:
    name: str
    reason: str
    conditions: tuple[Condition, ...] = ()


ON_SOCKET: tuple[Condition, ...] = ((0, "eq", 0),)  # fd 0: the job socket, nothing else
NOT_EXECUTABLE: tuple[Condition, ...] = ((2, "masked_eq", 0, PROT_EXEC),)

ALLOWLIST: tuple[Allowed, ...] = (
    # Memory: CPython's allocators (obmalloc arenas, malloc) and numpy's large arrays.
    Allowed("brk", "malloc's main heap"),
    Allowed("mmap", "arenas and large allocations, never executable", NOT_EXECUTABLE),
    Allowed("munmap", "returning arenas"),
    Allowed("mremap", "growing a large list or array in place"),
    Allowed("mprotect", "malloc's guard pages, never executable", NOT_EXECUTABLE),
    Allowed("madvise", "freeing pages (MADV_DONTNEED) and numpy's huge-page hint"),
    # The job socket: the next test's input in, the report out.
    Allowed("recvfrom", "reading the next test input", ON_SOCKET),
    Allowed("sendto", "writing the report", ON_SOCKET),
    Allowed("read", "reading the next test input", ON_SOCKET),
    Allowed("write", "writing the report", ON_SOCKET),
    Allowed("shutdown", "ending the report", ON_SOCKET),
    Allowed("close", "closing the socket at exit (no other descriptor exists)"),
    # Time and usage, for the harness's per-test CPU figures.
    Allowed("clock_gettime", "time.process_time and time.perf_counter (vDSO fallback)"),
    Allowed("clock_getres", "time.get_clock_info"),
    Allowed("gettimeofday", "time.time (vDSO fallback)"),
    Allowed("getrusage", "the report's CPU time and peak memory"),
    Allowed(
        "prlimit64",
        "reading one's own limit; another's, or setting one, is refused",
        ((0, "eq", 0), (2, "eq", 0)),
    ),
    # The interpreter itself.
    Allowed("getrandom", "os.urandom and hash seeds of new objects"),
    Allowed("futex", "the GIL and locks (one thread: never contended)"),
    Allowed("rt_sigreturn", "returning from a signal handler"),
    Allowed("getpid", "os.getpid: the worker's own id (1 in its pid namespace)"),
    Allowed("gettid", "the interpreter's thread id"),
    Allowed("sched_yield", "spin-lock back-off in the allocator"),
    Allowed("exit", "ending the thread"),
    Allowed("exit_group", "ending the worker"),
)

# Never to be allowed, whatever the arguments: a test checks none is in the list above.
FORBIDDEN = (
    "open", "openat", "openat2", "creat", "open_by_handle_at", "name_to_handle_at",
    "truncate", "ftruncate", "fallocate", "stat", "lstat", "newfstatat", "statx", "access",
    "faccessat", "faccessat2", "readlink", "readlinkat", "getdents64", "chdir", "fchdir",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "pidfd_open", "pidfd_getfd", "pidfd_send_signal", "process_vm_readv", "process_vm_writev",
    "ptrace", "kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "sendmsg",
    "recvmsg", "clone", "clone3", "fork", "vfork", "execve", "execveat",
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "fsopen", "fsmount",
    "open_tree", "move_mount", "memfd_create", "memfd_secret", "userfaultfd", "bpf",
    "perf_event_open", "keyctl", "add_key", "request_key", "setrlimit", "prctl", "seccomp",
    "pkey_mprotect", "ioctl", "dup", "dup2", "dup3", "fcntl", "splice", "tee", "vmsplice",
    "sendfile", "copy_file_range", "landlock_create_ruleset", "landlock_add_rule",
    "landlock_restrict_self", "setuid", "setgid", "setresuid", "setresgid", "capset",
)  # fmt: skip


def build(seccomp: Any) -> bytes:
    """The allowlist as a BPF program (bytes of `struct sock_filter`), compiled once."""
    ops = {"eq": seccomp.EQ, "masked_eq": seccomp.MASKED_EQ}
    f = seccomp.SyscallFilter(defaction=seccomp.ERRNO(errno.EPERM))
    for call in ALLOWLIST:
        args = [_arg(seccomp, ops, c) for c in call.conditions]
        f.add_rule(seccomp.ALLOW, call.name, *args)
    read, write = os.pipe()
    try:
        f.export_bpf(os.fdopen(write, "wb", closefd=False))
        os.close(write)
        write = -1
        with os.fdopen(read, "rb") as program:
            read = -1
            return program.read()
    finally:
        for fd in (read, write):
            if fd >= 0:
                os.close(fd)


def _arg(seccomp: Any, ops: dict[str, int], condition: Condition) -> Any:
    index, op, value, *mask = condition
    if mask:  # MASKED_EQ: (arg & mask) == value
        return seccomp.Arg(index, ops[op], mask[0], value)
    return seccomp.Arg(index, ops[op], value)
