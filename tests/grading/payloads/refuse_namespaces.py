"""`python refuse_namespaces.py ARGS...`: run `python -m bot ARGS...` where namespaces are refused.

Installs a seccomp filter, inherited by the bot, its zygote and every worker, that refuses
what Docker's default profile refuses a container without CAP_SYS_ADMIN: `unshare`, `setns`,
`mount`, `umount2`, `pivot_root` and a `clone` asking for a new namespace fail with EPERM,
`clone3` with ENOSYS (so libc falls back to `clone`). See moby's
profiles/seccomp/default.json. The sandbox must then report namespaces missing, with why.
"""

from __future__ import annotations

import errno
import os
import sys

import pyseccomp  # type: ignore[import-untyped]

CLONE_NEW_ANY = 0x7E020000  # every CLONE_NEW* flag, the mask Docker's profile uses


def refuse_namespaces() -> None:
    f = pyseccomp.SyscallFilter(defaction=pyseccomp.ALLOW)
    for name in ("unshare", "setns", "mount", "umount2", "pivot_root"):
        f.add_rule(pyseccomp.ERRNO(errno.EPERM), name)
    for flag in range(17, 31):  # one rule per namespace bit: libseccomp masks one value
        if CLONE_NEW_ANY & (1 << flag):
            bit = 1 << flag
            f.add_rule(pyseccomp.ERRNO(errno.EPERM), "clone",
                       pyseccomp.Arg(0, pyseccomp.MASKED_EQ, bit, bit))  # fmt: skip
    f.add_rule(pyseccomp.ERRNO(errno.ENOSYS), "clone3")
    f.load()


if __name__ == "__main__":
    refuse_namespaces()
    os.execv(sys.executable, [sys.executable, "-m", "bot", *sys.argv[1:]])
