"""Test inputs handed out one at a time: the parent's `Feeder` over a real socket pair."""

from __future__ import annotations

import json
import socket

from bot.grades import RawRun
from bot.grading.pool import Feeder, Limits, read_report


def line(event: dict[str, object]) -> bytes:
    return json.dumps(event).encode() + b"\n"


async def test_a_worker_that_stops_listening_still_has_its_whole_report_read() -> None:
    """The worker compiled, found no function to test, reported and closed without reading
    the input the parent then sends: the send fails, the rest of the report must not."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    ours.setblocking(False)
    report = (line({"event": "compiled", "notes": []})
              + line({"event": "missing", "function": "f", "pad": "x" * 100_000})
              + line({"event": "done", "output": ""}))  # fmt: skip
    with theirs:
        theirs.sendall(report)  # all of it queued (more than one read), then gone
    raw = RawRun()
    with ours:
        await read_report(ours, raw, Limits.of({"tests": ["[1]"]}, 1 << 20),
                          Feeder(ours, [b"[1]\n"]))  # fmt: skip
    assert [json.loads(x)["event"] for x in raw.lines] == ["compiled", "missing", "done"]


async def test_inputs_go_out_in_order_one_per_ready_line() -> None:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    ours.setblocking(False)
    feeder = Feeder(ours, [b"[1]\n", b"[2]\n", b"[3]\n"])
    with ours, theirs:
        await feeder.lines([line({"event": "compiled"}).rstrip()])
        assert theirs.recv(100) == b"[1]\n"  # only the first: the second waits for its turn
        await feeder.lines([line({"event": "test", "i": 0}).rstrip(), b'{"event": "other"}'])
        assert theirs.recv(100) == b"[2]\n"
        await feeder.lines([line({"event": "test", "i": 1}).rstrip()] * 3)
        theirs.setblocking(False)
        assert theirs.recv(100) == b"[3]\n"  # and nothing more, however many lines came
