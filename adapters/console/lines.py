"""The console's input, a line at a time, as the terminal or a script meant it.

Lines are numbered from 1 as read, so a message can name one ("the block opened on line 3").
Windows line endings (CRLF, or a CR left at the end of input) read as plain ones, and a byte
order mark (U+FEFF) that starts a line is dropped, so a script saved on Windows, or by an
editor that marks UTF-8, works as typed (`studybot grade` drops a file's BOM the same way).
Lines can be given back (`replay`) to be read again, not counted twice. Bytes that are not
UTF-8 are read as U+FFFD, and `not_utf8` hears the line's number, so the console can say so
rather than echo them back as they came.

Reading happens in a daemon thread of its own, one per line, so the event loop stays free for
scheduled posts and a stop (SIGTERM, Ctrl-C) does not wait for a line that may never come, as
it would for a thread of the loop's default executor. A real stream is read from its file
descriptor with `os.read`, never through `sys.stdin`'s buffered reader: a thread left waiting
in that reader holds its lock, and the interpreter aborts when it finds it held at exit.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import threading
from collections.abc import Callable, Iterable
from typing import Protocol, TextIO

from bot.text.code import valid_unicode

BOM = "\ufeff"


class Lines:
    def __init__(self, stream: TextIO, not_utf8: Callable[[int], None]) -> None:
        self._stream = _bytes_of(stream)
        self._not_utf8 = not_utf8
        self._again: collections.deque[str] = collections.deque()
        self.number = 0  # of the last line read from the stream

    async def read(self) -> str | None:
        """The next line, ending in "\\n" unless it is the last; None at end of input."""
        if self._again:
            return self._again.popleft()
        raw = await _read_in_daemon(self._stream)
        if not raw:
            return None
        self.number += 1
        line, valid = _text(raw)
        if not valid:
            self._not_utf8(self.number)
        return _plain_ending(line).removeprefix(BOM)

    def replay(self, lines: Iterable[str]) -> None:
        """Have `lines` read again, in order, before the rest of the input."""
        self._again.extendleft(reversed(list(lines)))


class _Readable(Protocol):
    def readline(self) -> str | bytes: ...


class _Descriptor:
    """Lines of bytes from a file descriptor, read with `os.read` (no lock of Python's)."""

    def __init__(self, fd: int) -> None:
        self._fd, self._pending, self._ended = fd, b"", False

    def readline(self) -> bytes:
        while b"\n" not in self._pending and not self._ended:
            chunk = os.read(self._fd, 1 << 16)
            self._ended = not chunk
            self._pending += chunk
        line, newline, self._pending = self._pending.partition(b"\n")
        return line + newline


def _bytes_of(stream: TextIO) -> _Readable:
    """The bytes under `stream` when it has a descriptor (a terminal, a pipe, a file), to
    decode them ourselves; else the stream (text in memory)."""
    try:
        return _Descriptor(stream.fileno())
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return stream


def _text(raw: str | bytes) -> tuple[str, bool]:
    """A line as text, and whether it was valid: invalid UTF-8 (and the lone surrogates a
    text stream makes of it) read as U+FFFD."""
    if isinstance(raw, bytes):
        try:
            return raw.decode("utf-8"), True
        except UnicodeDecodeError:
            return raw.decode("utf-8", errors="replace"), False
    text = valid_unicode(raw)
    return text, text == raw


def _plain_ending(line: str) -> str:
    if line.endswith("\r\n"):
        return line[:-2] + "\n"
    return line.removesuffix("\r")


async def _read_in_daemon(stream: _Readable) -> str | bytes:
    """`stream.readline()` in a daemon thread: abandoned, not awaited, when the bot stops."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[str | bytes] = loop.create_future()

    def deliver(line: str | bytes) -> None:
        if not done.done():
            done.set_result(line)

    def read() -> None:
        line = stream.readline()
        with contextlib.suppress(RuntimeError):  # the loop closed while this thread waited
            loop.call_soon_threadsafe(deliver, line)

    threading.Thread(target=read, name="console-stdin", daemon=True).start()
    return await done
