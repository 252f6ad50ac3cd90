"""A test-only Executor that plays a worker's report back through the parent's real reading.

Its "worker" is a thread writing the given bytes onto one end of a real socketpair; the
other end is read by `read_report`, the code `Sandbox` reads every worker with. So a hostile
report (a flood, garbage, forged events) meets exactly what a hostile worker would meet.
`taken` counts the bytes the parent has read from its end, so a test can tell how much of a
flood was read, and how much between two turns of another task, whatever the machine's speed.

The job's wall-clock deadline is not applied: it limits a real worker's running time, and
a played-back report always ends (its writer closes the socket), so on a slow or busy
machine it would only turn a long read into a time-limit verdict. `PATIENCE` guards a hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
from collections.abc import Callable
from typing import Any

from bot.grades import RawRun
from bot.grading.pool import Limits, read_report
from tests.waiting import PATIENCE

OUTPUT_LIMIT = 16 * 1024 * 1024  # the Sandbox's default


def report(*events: Any) -> bytes:
    """Events as a worker writes them: one JSON object a line."""
    return b"".join(json.dumps(e).encode() + b"\n" for e in events)


class Playback:
    """Plays `data` back for every job, or `data(job)`: what that job's worker writes (a
    callable may also raise, as a sandbox in trouble does)."""

    def __init__(self, data: bytes | Callable[[dict[str, Any]], bytes], *,
                 size: int = OUTPUT_LIMIT) -> None:  # fmt: skip
        self.data, self.size = data, size
        self.jobs: list[dict[str, Any]] = []
        self.taken = 0  # bytes the parent read, over every job

    async def run(self, job: dict[str, Any], deadline: float) -> RawRun:
        self.jobs.append(job)
        data = self.data(job) if callable(self.data) else self.data
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        ours = _Counted(self, mine.detach())
        ours.setblocking(False)
        writer = threading.Thread(target=_write, args=(theirs, data), name="playback")
        writer.start()
        raw = RawRun()
        try:
            async with asyncio.timeout(PATIENCE):  # not `deadline`: see the module docstring
                await read_report(ours, raw, Limits.of(job, self.size))
        finally:
            ours.close()  # a writer still writing past the cap sees a broken pipe and stops
            await asyncio.to_thread(writer.join)
        return raw


class _Counted(socket.socket):
    """The parent's end of the socketpair, counting what it reads into `playback.taken`
    (the event loop reads a socket with its `recv`)."""

    def __init__(self, playback: Playback, fileno: int) -> None:
        super().__init__(fileno=fileno)
        self._playback = playback

    def recv(self, size: int, flags: int = 0) -> bytes:
        data = super().recv(size, flags)
        self._playback.taken += len(data)
        return data


def _write(sock: socket.socket, data: bytes) -> None:
    with sock, contextlib.suppress(OSError):  # OSError: the reader stopped at its cap
        sock.sendall(data)
