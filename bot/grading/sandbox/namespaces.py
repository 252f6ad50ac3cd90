"""A worker's own namespaces: user, mount, pid, network and IPC, and an empty read-only root.

Entered by each worker's keeper (the zygote's child) before it forks the worker itself, so

- the worker's user namespace is new and nested: the capabilities it holds there give no
  power over the zygote, the bot or any other worker, which all live outside it;
- the worker is pid 1 of its own pid namespace: no other process is visible or signalable;
- its root is an empty tmpfs, remounted read-only, with the host's tree detached: no host
  path exists for it, even if a call slipped through every other layer;
- its network namespace has only a loopback, down; its IPC namespace no shared segments.

The modules a solution may use were imported by the zygote before any of this, so the worker
needs no file at all. `available()` probes once, in a throwaway child, whether the kernel
allows it (containers often refuse `unshare`).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from bot.grading.sandbox import kernel

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
FLAGS = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x1, 0x2, 0x4, 0x8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 0x20, 0x1000, 0x4000, 0x40000
MNT_DETACH = 0x2
MOUNT_POINT = "/proc"  # exists on every Linux; covered only inside the new mount namespace
SEALED = MS_NOSUID | MS_NODEV | MS_NOEXEC


def enter() -> None:
    """Move this (single-threaded) process into new namespaces; its next child is pid 1."""
    uid, gid = os.geteuid(), os.getegid()
    kernel.unshare(FLAGS)
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"0 {uid} 1")
    _write("/proc/self/gid_map", f"0 {gid} 1")
    _empty_root()


def _empty_root() -> None:
    kernel.mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing propagates back to the host
    kernel.mount("none", MOUNT_POINT, "tmpfs", SEALED, "size=4k,nr_inodes=4,mode=0555")
    os.chdir(MOUNT_POINT)
    kernel.pivot_root(".", ".")  # the old root is stacked on the new one ...
    kernel.umount(".", MNT_DETACH)  # ... and detached: the host tree is gone
    os.chdir("/")
    kernel.mount(None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | SEALED)


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def available(prepare: Callable[[], None]) -> str:
    """Why `enter()` fails here ("" if it works), tried in a throwaway child after
    `prepare` (what a worker does first)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.close(read)
            prepare()
            enter()
            code = 0
        except OSError as exc:
            os.write(write, str(exc).encode()[:500])
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        why = pipe.read().decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    return "" if os.waitstatus_to_exitcode(status) == 0 else why or "unshare failed"
