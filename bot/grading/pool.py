"""The parent's side of the sandbox: a zygote, a few warm workers, one job per worker.

    Sandbox.start()  starts the zygote (in a thread: the event loop never forks or waits
                     on a process) and asks it for `warm` workers ahead of need.
    Sandbox.run(job, deadline)
                     takes a warm worker, asks for its replacement, sends the job, reads the
                     worker's events until it closes the socket, and kills it (through the
                     zygote) if the wall-clock deadline passes or it writes too much.

Each worker takes exactly one job and then exits, so nothing a solution leaves behind
(globals, monkey-patched modules, a leaked object) survives into anyone else's job.
If the zygote itself dies (killed by an operator or the OOM killer), a new one is started
at once, and a job whose worker died with it runs again on a new worker (grading has no side
effects, so a second run is safe): its verdict never blames the code for the sandbox's
trouble. Only if that fails too does the job end in `GradingUnavailable`. Reading
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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

from bot.errors import GradingUnavailable
from bot.grades import Exit, RawRun
from bot.ports import Metrics, NoMetrics

log = logging.getLogger(__name__)

READ_CHUNK = 1 << 16
EXIT_GRACE = 2.0  # seconds a finished worker gets to exit before it is killed
# A report is a `compiled` line, one line per test, then `missing` or `done`: any more is not
# the harness talking, and a flood of short lines would cost the parent far more than bytes.
EVENTS_BESIDE_TESTS = 8
# The lines after which the worker is ready for its next test's input: the harness's own
# prefixes, as in `reported_in_full`.
READY_FOR_INPUT = (b'{"event": "compiled"', b'{"event": "test"')


@dataclass(frozen=True, slots=True)
class Layers:
    """Every isolation layer around the workers, by name: "" when active, else why not."""

    report: dict[str, str]

    @property
    def missing(self) -> dict[str, str]:
        return {name: why for name, why in self.report.items() if why}

    def describe(self) -> str:
        on = [name for name, why in self.report.items() if not why]
        off = [f"{name} ({why})" for name, why in self.missing.items()]
        return "active: " + ", ".join(on) + ("; unavailable: " + ", ".join(off) if off else "")


RESTART_PAUSE = 1.0  # seconds between zygote restarts, so a crash loop cannot spin


class _WorkerLost(Exception):
    """A worker died for a reason of the sandbox's own (its zygote went, or it was gone before
    the job reached it): the job is safe to run again elsewhere."""


@dataclass(slots=True)
class _Worker:
    pid: int
    sock: socket.socket
    exited: asyncio.Future[Exit]
    generation: int  # which zygote forked it


class Feed(Protocol):
    """What hands a worker its test inputs as its report arrives (`Feeder`)."""

    async def lines(self, lines: list[bytes]) -> None: ...


# Builds the feed of one job: the worker's socket and the job's inputs, one line each.
FeedFactory = Callable[[socket.socket, list[bytes]], Feed]


class Sandbox:
    def __init__(self, *, warm: int = 4, output_limit: int = 16 * 1024 * 1024,
                 strict: bool = False, disabled: frozenset[str] = frozenset(),
                 feed: FeedFactory | None = None, metrics: Metrics | None = None,
                 ) -> None:  # fmt: skip
        """`strict`: refuse every job unless all isolation layers came up (fail closed).
        `disabled` turns layers off on purpose (the escape drill's tests). `feed` replaces
        `Feeder` at the inputs' boundary (a test holds a job mid-way by withholding one).
        `metrics` hears of each zygote's layers and of every restart."""
        self._metrics: Metrics = metrics or NoMetrics()
        self._warm_target, self._output_limit, self._strict = warm, output_limit, strict
        self._feed: FeedFactory = feed or Feeder
        self._disabled = ",".join(sorted(disabled))
        self._warm: asyncio.Queue[_Worker | None] = asyncio.Queue()  # None: gave up
        self._pending: collections.deque[socket.socket] = collections.deque()
        self._workers: dict[int, _Worker] = {}
        self._sender = ThreadPoolExecutor(1, thread_name_prefix="zygote-send")
        self._control: socket.socket | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._ready: asyncio.Future[Layers] | None = None
        self._broken: str | None = None
        self._closing = False
        self._generation = 0
        self._restart: asyncio.Task[None] | None = None
        self.restarts = 0
        self.layers: Layers | None = None

    @property
    def warm_target(self) -> int:
        """How many workers are kept ready: as many jobs as can start without waiting."""
        return self._warm_target

    async def start(self) -> Layers:
        self._loop = asyncio.get_running_loop()
        self.layers = await self._launch()
        if self._strict and self.layers.missing:
            self._broken = ("grading is off: strict isolation needs every layer, and these are "
                            "missing: " + "; ".join(f"{n} ({w})" for n, w in
                                                    self.layers.missing.items()))  # fmt: skip
            log.error("%s (STUDYBOT_GRADING_ISOLATION=relaxed accepts the risk)", self._broken)
        return self.layers

    async def _launch(self) -> Layers:
        """Start a zygote (in a thread), wait for its report, and ask for warm workers."""
        self._generation += 1
        generation, self._ready = self._generation, self._loop.create_future()
        control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            with theirs:
                self._process = await asyncio.to_thread(
                    _spawn_zygote, theirs.fileno(), self._disabled
                )
        except BaseException:
            control.close()
            raise
        self._control = control
        threading.Thread(target=self._read_control, args=(control, generation),
                         name="zygote-read", daemon=True).start()  # fmt: skip
        layers = await asyncio.wait_for(self._ready, timeout=30)
        self._metrics.isolation({name: not why for name, why in layers.report.items()})
        for _ in range(self._warm_target):
            self._request_fork()
        return layers

    @property
    def pid(self) -> int | None:
        """The zygote's process id (for diagnostics)."""
        return self._process.pid if self._process else None

    async def close(self) -> None:
        self._closing = True
        if self._restart is not None:
            self._restart.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._restart
        if self._control is not None:
            with contextlib.suppress(OSError):
                self._control.shutdown(socket.SHUT_RDWR)
        if self._process is not None:
            await asyncio.to_thread(_stop, self._process)
        self._sender.shutdown(wait=False)
        self._drop_workers()
        if self._control is not None:
            self._control.close()

    async def run(self, job: dict[str, Any], deadline: float) -> RawRun:
        """Run `job` in a fresh worker; at most `deadline` seconds of wall time."""
        try:
            return await self._run_on(await self._take(), job, deadline)
        except _WorkerLost:
            try:
                return await self._run_on(await self._take(), job, deadline)
            except _WorkerLost:
                raise GradingUnavailable("the grading sandbox stopped during this job") from None

    async def _run_on(self, worker: _Worker, job: dict[str, Any], deadline: float) -> RawRun:
        raw = RawRun(worker=worker.pid)
        try:
            async with asyncio.timeout(deadline):
                await self._exchange(worker, job, raw)
        except TimeoutError:
            raw.timed_out = True
        finally:
            worker.sock.close()
            if worker.generation == self._generation:  # (a new zygote makes its own)
                self._request_fork()  # only now: a fork during the job would compete for CPU
        # How it ended says why a report was cut short, and it alone says what the worker
        # used: its keeper's figures, never the report's. (Knowing it also settles whether its
        # zygote died under it: the loss resolves `exited` too, not the code's fault.)
        raw.exit = await self._stopped(worker, kill=raw.timed_out or raw.overflowed)
        if worker.generation != self._generation:
            raise _WorkerLost
        return raw

    async def _take(self) -> _Worker:
        if self._broken:
            raise GradingUnavailable(self._broken)
        worker = await self._warm.get()
        if worker is None:
            self._warm.put_nowait(None)  # wake the next waiter too
            raise GradingUnavailable(self._broken or "the grading sandbox stopped")
        return worker

    async def _exchange(self, worker: _Worker, job: dict[str, Any], raw: RawRun) -> None:
        """Send the job without its test inputs (only how many), then read the report,
        handing out each input when the worker is ready for it (see `Feeder`)."""
        loop, sock = asyncio.get_running_loop(), worker.sock
        inputs = [str(test).encode() + b"\n" for test in job.get("tests", ())]
        header = {k: v for k, v in job.items() if k != "tests"} | {"count": len(inputs)}
        try:
            await loop.sock_sendall(sock, json.dumps(header).encode() + b"\n")
        except OSError:  # the worker is gone before it read a byte
            await self._stopped(worker, kill=True)
            raise _WorkerLost from None
        await read_report(sock, raw, Limits.of(job, self._output_limit), self._feed(sock, inputs))

    async def _stopped(self, worker: _Worker, *, kill: bool) -> Exit | None:
        """How a worker ended. One that will not end within `EXIT_GRACE` of its report (it
        finished talking, then hung or spun) does not get to linger: it is killed, and its
        keeper still reports what it used. None only if even that does not come."""
        if kill:
            self._kill(worker.pid)
        for attempt in range(2):
            try:
                return await asyncio.wait_for(asyncio.shield(worker.exited), EXIT_GRACE)
            except TimeoutError:
                if attempt == 0:
                    self._kill(worker.pid)
        return None

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

    def _read_control(self, control: socket.socket, generation: int) -> None:
        """A zygote's reader thread: hand each event to the loop, and say when it is gone."""
        while True:
            try:
                message = control.recv(1 << 16)
            except OSError:
                message = b""
            if not message:
                self._loop.call_soon_threadsafe(self._on_lost, generation)
                return
            self._loop.call_soon_threadsafe(self._on_event, json.loads(message), generation)

    def _on_event(self, event: dict[str, Any], generation: int) -> None:
        if generation != self._generation:
            return  # from a zygote already replaced
        kind = event["event"]
        if kind == "ready" and self._ready is not None and not self._ready.done():
            self._ready.set_result(Layers({str(k): str(v) for k, v in event["layers"].items()}))
        elif kind == "forked":
            fresh = _Worker(event["pid"], self._pending.popleft(), self._loop.create_future(),
                            generation)  # fmt: skip
            self._workers[fresh.pid] = fresh
            self._warm.put_nowait(fresh)
        elif kind == "exit" and (ended := self._workers.pop(event["pid"], None)) is not None:
            ended.exited.set_result(_exit(event))

    def _on_lost(self, generation: int) -> None:
        if generation != self._generation or self._closing:
            return
        if self._ready is not None and not self._ready.done():
            self._ready.set_exception(GradingUnavailable("the grading sandbox did not start"))
            return
        log.error("the grading zygote stopped; starting a new one")
        for worker in self._workers.values():
            if not worker.exited.done():
                worker.exited.set_result(Exit(-1, None, None, None))
        self._workers.clear()
        self._drop_workers()
        if self._control is not None:
            self._control.close()  # its reader thread has returned: it saw the end
            self._control = None
        self._generation += 1  # what the old zygote forked is now stale
        self._restart = self._loop.create_task(self._relaunch(), name="zygote-restart")

    async def _relaunch(self) -> None:
        old = self._process
        if old is not None:
            await asyncio.to_thread(_stop, old)
        await asyncio.sleep(RESTART_PAUSE if self.restarts else 0)
        try:
            await self._launch()
        except Exception as exc:  # a sandbox that cannot start again: refuse, don't hang
            log.exception("the grading sandbox could not be restarted")
            self._broken = f"the grading sandbox stopped and could not restart: {exc}"
            self._warm.put_nowait(None)
            return
        self.restarts += 1
        self._metrics.sandbox_restart()
        log.info("the grading zygote was restarted")

    def _drop_workers(self) -> None:
        """Forget warm workers and pending forks (their zygote is gone or going)."""
        while not self._warm.empty():
            if (worker := self._warm.get_nowait()) is not None:
                worker.sock.close()
        while self._pending:
            self._pending.popleft().close()


def _exit(event: dict[str, Any]) -> Exit:
    """The zygote's exit event (its own words, not a worker's; still checked for type)."""
    cpu, rss = event.get("cpu_ms"), event.get("maxrss_kb")
    return Exit(int(event["code"]), event["signal"],
                float(cpu) if isinstance(cpu, int | float) else None,
                rss if isinstance(rss, int) else None, event.get("over") is True)  # fmt: skip


def reported_in_full(raw: RawRun) -> bool:
    """Whether the report ends with the harness's own `done` event. Every line starts with
    the harness's `{"event": ...`, so nothing a solution returns or prints can fake this."""
    return bool(raw.lines) and raw.lines[-1].startswith(b'{"event": "done"')


@dataclass(frozen=True, slots=True)
class Limits:
    """How much of a report the parent takes: bytes in all, and complete lines."""

    size: int
    lines: int

    @classmethod
    def of(cls, job: dict[str, Any], size: int) -> Limits:
        return cls(size, len(job.get("tests", ())) + EVENTS_BESIDE_TESTS)


class Feeder:
    """Hands a worker its test inputs one at a time, in order: the first when its code has
    compiled, each next one when the previous test's result has arrived.

    A worker never holds a later test's input: the rest stay in the parent until it is done
    with the one before, and expected results never leave the parent. So a solution that
    escapes every restricted-language check still finds no later test's data in its memory."""

    def __init__(self, sock: socket.socket, inputs: list[bytes]) -> None:
        self._sock, self._inputs, self._sent = sock, inputs, 0

    async def lines(self, lines: list[bytes]) -> None:
        """React to complete report lines as they arrive."""
        for line in lines:
            if line.startswith(READY_FOR_INPUT) and self._sent < len(self._inputs):
                try:
                    await asyncio.get_running_loop().sock_sendall(
                        self._sock, self._inputs[self._sent]
                    )
                except OSError:  # it stopped listening (no function to test, say): its
                    self._sent = len(self._inputs)  # report may still be on its way
                    return
                self._sent += 1


async def read_report(sock: socket.socket, raw: RawRun, limit: Limits,
                      feeder: Feed | None = None) -> None:  # fmt: skip
    """Read a worker's report until it closes `sock`, into `raw.lines`.

    The worker may be hostile, so this is linear in what it sends and bounded: bytes go into
    one buffer (never re-joined or re-split as they arrive), newlines are counted chunk by
    chunk, and reading stops, marking `raw.overflowed`, as soon as either limit is passed.
    A worker writing as fast as it can would otherwise hold the loop for the whole read:
    `sock_recv` does not yield while data is waiting, so the loop is given a turn per chunk.
    The buffer is cut into lines once, at the end; a last line without its newline is cut
    short and dropped. Decoding the lines is the judge's work, in a thread. Lines completed
    by a chunk are shown to `feeder` (at most the lines limit in all)."""
    loop, buffer, newlines, start = asyncio.get_running_loop(), bytearray(), 0, 0
    with contextlib.suppress(ConnectionError):  # it died mid-report: the report is cut
        while chunk := await loop.sock_recv(sock, READ_CHUNK):
            buffer += chunk
            fresh = chunk.count(b"\n")
            newlines += fresh
            if len(buffer) > limit.size or newlines > limit.lines:
                raw.overflowed = True
                break
            if fresh and feeder is not None:
                end = buffer.rfind(b"\n") + 1
                await feeder.lines(bytes(buffer[start:end]).split(b"\n")[:-1])
                start = end
            await asyncio.sleep(0)  # sock_recv returns at once while data waits: let others in
    raw.lines.extend(_lines(buffer, limit))


def _lines(buffer: bytearray, limit: Limits) -> list[bytes]:
    """The first complete lines of `buffer` within both limits, each copied once."""
    lines: list[bytes] = []
    start, end = 0, min(len(buffer), limit.size)
    with memoryview(buffer) as view:
        while len(lines) < limit.lines and (stop := buffer.find(b"\n", start, end)) >= 0:
            lines.append(bytes(view[start:stop]))
            start = stop + 1
    return lines


# The zygote's whole environment: nothing of the bot's (no tokens, no settings), and one
# thread for the numeric libraries, which a worker could not start anyway.
ZYGOTE_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def _spawn_zygote(control_fd: int, disabled: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-I", "-m", "bot.grading.zygote", str(control_fd), disabled],
        pass_fds=(control_fd,),
        env=ZYGOTE_ENV,
        cwd="/",
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        process_group=0,  # a terminal's Ctrl-C is for the bot, which stops it in order
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    try:
        process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
