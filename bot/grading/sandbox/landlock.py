"""Landlock: a ruleset that handles every access right the kernel knows and grants none.

Once restricted, the process and everything it could start may not open, create, remove,
rename, truncate or execute any file, bind or connect a TCP port (ABI 4+), reach an abstract
Unix socket outside its domain, or signal a process outside it (ABI 6+). It is the file
system layer that holds even where namespaces are refused, and beside seccomp a second,
independent one. Needs no_new_privs (set before).
"""

from __future__ import annotations

import ctypes
import os

from bot.grading.sandbox import kernel

CREATE_RULESET_VERSION = 1 << 0

# handled_access_fs by ABI version: 13 rights in ABI 1, REFER in 2, TRUNCATE in 3, IOCTL_DEV in 5
FS_RIGHTS = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
NET_RIGHTS = 0b11  # BIND_TCP | CONNECT_TCP (ABI 4)
SCOPES = 0b11  # ABSTRACT_UNIX_SOCKET | SIGNAL (ABI 6)


def abi() -> int:
    """The kernel's Landlock ABI version; 0 where Landlock is missing or refused."""
    try:
        return kernel.syscall(kernel.LANDLOCK_CREATE_RULESET, 0, 0, CREATE_RULESET_VERSION)
    except OSError:
        return 0


class _Ruleset(ctypes.Structure):
    _fields_ = (("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64))  # fmt: skip


def deny_all(version: int) -> None:
    """Restrict this process to no file access at all (and no TCP, no signals out)."""
    fs = FS_RIGHTS[max(v for v in FS_RIGHTS if v <= version)]
    ruleset = _Ruleset(fs, NET_RIGHTS if version >= 4 else 0, SCOPES if version >= 6 else 0)
    size = 24 if version >= 6 else 16 if version >= 4 else 8  # the struct as that ABI knows it
    fd = kernel.syscall(kernel.LANDLOCK_CREATE_RULESET, ctypes.addressof(ruleset), size, 0)
    try:
        kernel.syscall(kernel.LANDLOCK_RESTRICT_SELF, fd, 0)
    finally:
        os.close(fd)
