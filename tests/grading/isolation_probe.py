"""Run as a script by test_isolation.py: applies the worker's layers, reports what they allow.

Usage: python isolation_probe.py PORT FILE   (PORT: a TCP port listening on the host's
loopback; FILE: a file of ours the worker must not be able to change)
Prints one JSON object: the layers that came up, the worker's descriptors and limits as seen
from outside, and the errno of each forbidden attempt made inside (null = it succeeded).
"""

from __future__ import annotations

import errno
import json
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path

from bot.grading.sandbox import isolation, keeper


def attempts(port: int, victim: str) -> dict[str, Callable[[], object]]:
    return {
        "truncate_file": lambda: os.truncate(victim, 0),
        "unlink_file": lambda: Path(victim).unlink(),
        "rename_file": lambda: Path(victim).rename(victim + ".moved"),
        "chmod_file": lambda: Path(victim).chmod(0o777),
        "socket": lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM),
        "fork": os.fork,
        "exec": lambda: os.execv("/bin/true", ["/bin/true"]),
        "open_file": lambda: os.open("/etc/hostname", os.O_RDONLY),
        "kill_parent": lambda: os.kill(os.getppid(), 0),
        "connect_host": lambda: socket.socket().connect(("127.0.0.1", port)),
    }


def try_all(port: int, victim: str) -> dict[str, int | None]:
    results: dict[str, int | None] = {}
    for name, attempt in attempts(port, victim).items():
        try:
            attempt()
            results[name] = None
        except OSError as exc:
            results[name] = exc.errno or errno.EIO
        except Exception:  # refused some other way (e.g. no codec could be imported)
            results[name] = errno.EIO
    return results


def main() -> None:
    port, victim = int(sys.argv[1]), sys.argv[2]
    plan = isolation.probe()
    ours, theirs = socket.socketpair()
    report, report_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        ours.close()
        os.close(report)
        keeper.block_signals()
        isolation.isolate(plan)

        def work(budget: int) -> None:
            isolation.lock_down(theirs.fileno(), budget, plan)
            isolation.limit_job(1.0, 512 * 1024 * 1024)
            keeper.tell(1, 1.0)
            channel = socket.socket(fileno=0)
            isolation.seal(plan)
            channel.sendall(b"ready")
            channel.recv(1)  # wait while the parent looks at us from outside
            channel.sendall(json.dumps(try_all(port, victim)).encode())

        keeper.run(theirs.fileno(), report_w, work)
        os._exit(0)
    theirs.close()
    os.close(report_w)
    assert ours.recv(5) == b"ready"
    worker_pid = _worker(pid, plan)
    fds = sorted(entry.name for entry in Path(f"/proc/{worker_pid}/fd").iterdir())
    limits = Path(f"/proc/{worker_pid}/limits").read_text()
    ours.sendall(b"go")
    inside = json.loads(ours.recv(65536))
    os.waitpid(pid, 0)
    print(json.dumps({"layers": plan.report(), "fds": fds, "limits": limits,
                      "inside": inside}))  # fmt: skip


def _worker(child: int, plan: isolation.Plan) -> int:
    """The worker's pid as the host sees it: the keeper's only child."""
    children = Path(f"/proc/{child}/task/{child}/children").read_text().split()
    return int(children[0])


if __name__ == "__main__":
    main()
