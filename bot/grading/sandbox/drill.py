"""The escape drill: a file run as plain Python in a grading worker, every layer on.

No restricted compiler and no rules: real builtins, any module already loaded (ctypes
included), exactly what an attacker has once the restricted layer is bypassed. It is how the
operator's `studybot sandbox exec` and the tests show that the process boundary holds on its
own. Never reachable from chat: only the CLI builds an `exec` job.

    {"event": "done", "exit": N, "stdout": "...", "stderr": "..."}

`exit` is the code's own idea of how it ended (SystemExit's code, 1 for an uncaught
exception); the parent reports how the process really ended beside it.
"""

from __future__ import annotations

import builtins
import io
import sys
import traceback
from collections.abc import Callable, Mapping
from typing import Any


class _Capped(io.StringIO):
    """A text stream that keeps its first `cap` characters and drops the rest."""

    def __init__(self, cap: int) -> None:
        super().__init__()
        self.cap = cap

    def write(self, text: str) -> int:
        room = self.cap - self.tell()
        if room > 0:
            super().write(text[:room])
        return len(text)


def drill(job: Mapping[str, Any], emit: Callable[[dict[str, Any]], None]) -> None:
    cap = int(job["output_cap"])
    out, err = _Capped(cap), _Capped(cap)
    sys.stdout, sys.stderr = out, err
    code = _run(str(job["code"]), err)
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    emit({"event": "done", "exit": code, "stdout": out.getvalue(), "stderr": err.getvalue()})


def _run(source: str, err: _Capped) -> int:
    try:
        exec(compile(source, "<drill>", "exec"), {"__name__": "__main__", "__builtins__": builtins})
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    except BaseException as exc:  # the payload's own failure: reported, like Python does
        err.write("".join(traceback.format_exception(exc)))
        return 1
    return 0
