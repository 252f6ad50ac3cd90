"""Thin wrappers over the Linux calls the sandbox needs and Python 3.11 does not expose.

Each returns normally or raises OSError with the errno, like the `os` module does. Nothing
here decides policy; isolation.py, namespaces.py and landlock.py do.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import platform
import signal

_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_SECCOMP = 22
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_MODE_FILTER = 2

# System calls glibc has no wrapper for, by machine. The landlock numbers are the same on
# every architecture (they were added after the tables were unified).
PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}.get(platform.machine())
LANDLOCK_CREATE_RULESET, LANDLOCK_RESTRICT_SELF = 444, 446
CAPSET = {"x86_64": 126, "aarch64": 91}.get(platform.machine())


def _check(result: int) -> int:
    if result < 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))
    return result


def prctl(option: int, value: int) -> None:
    _check(_libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0))


def die_with_parent() -> None:
    """Be killed when the parent process exits (the zygote with the bot, a worker with it)."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def set_dumpable(dumpable: bool) -> None:
    """With 0, no other process of the same user may open this one's /proc/<pid>/mem,
    environ or fd/, nor ptrace it, without CAP_SYS_PTRACE in its user namespace."""
    prctl(PR_SET_DUMPABLE, int(dumpable))


def no_new_privs() -> None:
    prctl(PR_SET_NO_NEW_PRIVS, 1)


def unshare(flags: int) -> None:
    _check(_libc.unshare(flags))


def mount(source: str | None, target: str, fstype: str | None, flags: int,
          data: str | None = None) -> None:  # fmt: skip
    def c(text: str | None) -> bytes | None:
        return None if text is None else os.fsencode(text)

    _check(_libc.mount(c(source), c(target), c(fstype), ctypes.c_ulong(flags), c(data)))


def umount(target: str, flags: int) -> None:
    _check(_libc.umount2(os.fsencode(target), flags))


def pivot_root(new_root: str, put_old: str) -> None:
    if PIVOT_ROOT is None:
        raise OSError(38, f"pivot_root: unknown on {platform.machine()}")
    _check(_libc.syscall(PIVOT_ROOT, os.fsencode(new_root), os.fsencode(put_old)))


def syscall(number: int, *args: int) -> int:
    """A raw system call with integer (or address) arguments, passed as C longs."""
    return _check(_libc.syscall(ctypes.c_long(number), *map(ctypes.c_long, args)))


class _CapHeader(ctypes.Structure):
    _fields_ = (("version", ctypes.c_uint32), ("pid", ctypes.c_int))


class _CapData(ctypes.Structure):
    _fields_ = (("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32))  # fmt: skip


def drop_capabilities() -> None:
    """Empty effective, permitted and inheritable sets (a worker's namespace gave it all)."""
    if CAPSET is None:
        raise OSError(38, f"capset: unknown on {platform.machine()}")
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3: two 32-bit words
    data = (_CapData * 2)()
    _check(_libc.syscall(CAPSET, ctypes.byref(header), ctypes.byref(data)))


class _SockFprog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))


def load_bpf(program: bytes) -> None:
    """Install a seccomp filter given as compiled BPF (8 bytes an instruction). Needs
    no_new_privs. Irreversible for this process and every process it could make."""
    buffer = ctypes.create_string_buffer(program, len(program))
    prog = _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    _check(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0))
