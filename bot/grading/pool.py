"""The parent's side of the sandbox: a zygote, a few warm workers, one job per worker.

    Sandbox.start()  starts the zygote (in a thread: the event loop never forks or waits
                     on a process) and asks it for `warm` workers ahead of need.
    Sandbox.run(job, deadline)
                     takes a warm worker, asks for its replacement, sends the job, reads the
                     worker's events until it closes the socket, and kills it (through the
                     zygote) if the wall-clock deadline passes or it writes too much.

Each worker takes exactly one job and then exits, so nothing a solution leaves behind
(globals, monkey-patched modules, a leaked object) survives into anyone else's job. Reading
happens on the loop with non-blocking sockets; decoding and judging the events is the
grader's job, in a thread.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import socket
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from bot.errors import GradingUnavailable
from bot.grading.results import Exit, RawRun

log = logging.getLogger(__name__)

READ_CHUNK = 1 << 16
EXIT_GRACE = 2.0  # seconds a finished worker gets to exit before it is killed


@dataclass(frozen=True, slots=True)
class Layers:
    """Which isolation layers are active around every worker."""

    namespaces: bool
    seccomp: bool

    def describe(self) -> str:
        on = ["process", "rlimits"]
        on += ["namespaces"] if self.namespaces else []
        on += ["seccomp"] if self.seccomp else []
        off = [n for n, a in (("namespaces", self.namespaces), ("seccomp", self.seccomp)) if not a]
        return "active: " + ", ".join(on) + ("; unavailable: " + ", ".join(off) if off else "")


@dataclass(slots=True)
class _Worker:
    pid: int
    sock: socket.socket
    exited: asyncio.Future[Exit]


class Sandbox:
    def __init__(self, *, warm: int = 4, output_limit: int = 16 * 1024 * 1024) -> None:
        self._warm_target, self._output_limit = warm, output_limit
        self._warm: asyncio.Queue[_Worker] = asyncio.Queue()
        self._pending: collections.deque[socket.socket] = collections.deque()
        self._workers: dict[int, _Worker] = {}
        self._sender = ThreadPoolExecutor(1, thread_name_prefix="zygote-send")
        self._control: socket.socket | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._ready: asyncio.Future[Layers] | None = None
        self._broken: str | None = None
        self.layers: Layers | None = None

    async def start(self) -> Layers:
        loop = asyncio.get_running_loop()
        self._loop, self._ready = loop, loop.create_future()
        self._control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs:
            self._process = await asyncio.to_thread(_spawn_zygote, theirs.fileno())
        threading.Thread(target=self._read_control, name="zygote-read", daemon=True).start()
        self.layers = await asyncio.wait_for(self._ready, timeout=30)
        for _ in range(self._warm_target):
            self._request_fork()
        return self.layers

    async def close(self) -> None:
        if self._control is not None:
            with contextlib.suppress(OSError):
                self._control.shutdown(socket.SHUT_RDWR)
        if self._process is not None:
            await asyncio.to_thread(_stop, self._process)
        self._sender.shutdown(wait=False)
        while not self._warm.empty():
            self._warm.get_nowait().sock.close()
        for sock in self._pending:
            sock.close()
        if self._control is not None:
            self._control.close()

    async def run(self, job: dict[str, Any], deadline: float) -> RawRun:
        """Run `job` in a fresh worker; at most `deadline` seconds of wall time."""
        worker = await self._take()
        raw = RawRun()
        try:
            async with asyncio.timeout(deadline):
                await self._exchange(worker, job, raw)
        except TimeoutError:
            raw.timed_out = True
        finally:
            worker.sock.close()
            # Replace it only now: a fork during the job would compete with it for the CPU.
            self._request_fork()
        if raw.timed_out or raw.overflowed or not raw.lines or b'"done"' not in raw.lines[-1]:
            raw.exit = await self._stopped(worker, kill=raw.timed_out or raw.overflowed)
        else:  # reported in full: its own exit is not worth waiting for, only enforcing
            self._loop.call_later(EXIT_GRACE, self._kill_if_alive, worker)
        return raw

    async def _take(self) -> _Worker:
        if self._broken:
            raise GradingUnavailable(self._broken)
        return await self._warm.get()

    async def _exchange(self, worker: _Worker, job: dict[str, Any], raw: RawRun) -> None:
        loop, sock = asyncio.get_running_loop(), worker.sock
        await loop.sock_sendall(sock, json.dumps(job).encode() + b"\n")
        buffer, size = b"", 0
        while chunk := await loop.sock_recv(sock, READ_CHUNK):
            size += len(chunk)
            if size > self._output_limit:
                raw.overflowed = True
                return
            *lines, buffer = (buffer + chunk).split(b"\n")
            raw.lines.extend(lines)

    async def _stopped(self, worker: _Worker, *, kill: bool) -> Exit | None:
        """How a worker that did not finish its report ended (a signal tells why)."""
        if kill:
            self._kill(worker.pid)
        try:
            return await asyncio.wait_for(asyncio.shield(worker.exited), EXIT_GRACE)
        except TimeoutError:  # finished talking but would not exit: it does not get to linger
            self._kill(worker.pid)
            return None

    def _kill_if_alive(self, worker: _Worker) -> None:
        if not worker.exited.done():
            self._kill(worker.pid)

    def _request_fork(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        ours.setblocking(False)
        self._pending.append(ours)
        self._sender.submit(self._send_fork, theirs)

    def _send_fork(self, theirs: socket.socket) -> None:
        with theirs:
            if self._control is not None:
                with contextlib.suppress(OSError):
                    socket.send_fds(self._control, [b"fork"], [theirs.fileno()])

    def _kill(self, pid: int) -> None:
        if self._control is not None:
            self._sender.submit(self._control.send, f"kill {pid}".encode())

    def _read_control(self) -> None:
        """The control socket's reader thread: hand each event to the loop."""
        assert self._control is not None
        while True:
            try:
                message = self._control.recv(1 << 16)
            except OSError:
                message = b""
            if not message:
                self._loop.call_soon_threadsafe(self._on_lost)
                return
            self._loop.call_soon_threadsafe(self._on_event, json.loads(message))

    def _on_event(self, event: dict[str, Any]) -> None:
        kind = event["event"]
        if kind == "ready" and self._ready is not None and not self._ready.done():
            layers = event["layers"]
            self._ready.set_result(Layers(bool(layers["namespaces"]), bool(layers["seccomp"])))
        elif kind == "forked":
            fresh = _Worker(event["pid"], self._pending.popleft(), self._loop.create_future())
            self._workers[fresh.pid] = fresh
            self._warm.put_nowait(fresh)
        elif kind == "exit" and (ended := self._workers.pop(event["pid"], None)) is not None:
            ended.exited.set_result(Exit(event["code"], event["signal"], event["cpu_ms"],
                                         event["maxrss_kb"]))  # fmt: skip

    def _on_lost(self) -> None:
        self._broken = "the grading sandbox stopped"
        if self._ready is not None and not self._ready.done():
            self._ready.set_exception(GradingUnavailable("the grading sandbox did not start"))
        for worker in self._workers.values():
            if not worker.exited.done():
                worker.exited.set_result(Exit(-9, 9, 0.0, 0))


def _spawn_zygote(control_fd: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-I", "-m", "bot.grading.zygote", str(control_fd)],
        pass_fds=(control_fd,),
        env={},  # no tokens, no settings: nothing of the bot's environment
        cwd="/",
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    try:
        process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
