"""Process hardening for the bot itself, applied once by the composition root.

- Not dumpable: no process of the bot's user (an escaped grading worker outside its
  namespaces included) may read or write the bot's memory, environment or descriptors
  through /proc/<pid>/mem, environ or fd/, nor ptrace it, without CAP_SYS_PTRACE.
- Secrets read once: after the settings are built, every secret setting is removed from the
  environment, and its value is overwritten in the process's original environment block
  too (that block is what /proc/<pid>/environ shows, and `os.environ.pop` leaves it as it
  was). The settings object is then the only holder of a token.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
from collections.abc import Iterable, MutableMapping

from bot.grading.sandbox import kernel

_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
_libc.getenv.restype = ctypes.c_void_p


def harden_process() -> None:
    """Make this process non-dumpable (see above); a kernel that refuses is not fatal."""
    with contextlib.suppress(OSError):
        kernel.set_dumpable(False)


def forget_secrets(names: Iterable[str], environ: MutableMapping[str, str] = os.environ) -> None:
    """Drop each named variable from `environ` and wipe its bytes from the C environment."""
    for name in names:
        _wipe(name)
        environ.pop(name, None)


def _wipe(name: str) -> None:
    address = _libc.getenv(os.fsencode(name))
    if address:
        ctypes.memset(address, 0, len(ctypes.string_at(address)))
