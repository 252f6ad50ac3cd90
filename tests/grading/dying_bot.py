"""Run by test_keeper.py as a bot process that dies: `python -m tests.grading.dying_bot [UID]`.

It starts a sandbox (as user UID, when given and run as root: an ordinary user's bot), has a
worker report in full, close its socket and then block for ever, prints the pids of the
zygote's family (keepers and workers) as one JSON list, and kills itself with SIGKILL,
leaving no chance to clean up. Nothing of that family may outlive it.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
from pathlib import Path

from bot.grading import pool
from bot.grading.pool import Sandbox

HANG = """
import json, os, threading
os.write(0, (json.dumps({"event": "done", "exit": 0, "stdout": "", "stderr": ""}) + "\\n").encode())
os.close(0)
lock = threading.Lock()
lock.acquire()
lock.acquire()  # for ever: no timeout, no CPU
"""
JOB = {"mode": "exec", "code": HANG, "time_limit": 30, "memory_mb": 64, "output_cap": 100}


class Watch:
    """A feed that notices the worker's `done` line (an `exec` job has no inputs to feed)."""

    reported = asyncio.Event()

    def __init__(self, sock: socket.socket, inputs: list[bytes]) -> None:
        pass

    async def lines(self, lines: list[bytes]) -> None:
        if any(line.startswith(b'{"event": "done"') for line in lines):
            self.reported.set()


def family(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        path = Path(f"/proc/{parent}/task/{parent}/children")
        children = [int(c) for c in path.read_text().split()] if path.exists() else []
        found += children
        todo += children
    return found


async def main() -> None:
    pool.EXIT_GRACE = 3600.0  # the parent never kills it itself: only dying can end it
    box = Sandbox(warm=1, feed=Watch)
    await box.start()
    running = asyncio.create_task(box.run(JOB, 3600))
    await Watch.reported.wait()
    assert box.pid is not None and not running.done()
    print(json.dumps([box.pid, *family(box.pid)]), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        uid = int(sys.argv[1])
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    asyncio.run(main())
