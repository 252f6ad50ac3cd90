"""The console's input, a line at a time, as the terminal or a script meant it.

Lines are numbered from 1 as read, so a message can name one ("the block opened on line 3").
Windows line endings (CRLF, or a CR left at the end of input) read as plain ones, and a byte
order mark (U+FEFF) that starts a line is dropped, so a script saved on Windows, or by an
editor that marks UTF-8, works as typed (`studybot grade` drops a file's BOM the same way).
Lines can be given back (`replay`) to be read again, not counted twice.

Reading happens in a daemon thread of its own, one per line, so the event loop stays free for
scheduled posts and a stop (SIGTERM, Ctrl-C) does not wait for a line that may never come, as
it would for a thread of the loop's default executor.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import threading
from collections.abc import Iterable
from typing import TextIO

BOM = "\ufeff"


class Lines:
    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._again: collections.deque[str] = collections.deque()
        self.number = 0  # of the last line read from the stream

    async def read(self) -> str | None:
        """The next line, ending in "\\n" unless it is the last; None at end of input."""
        if self._again:
            return self._again.popleft()
        line = await _read_in_daemon(self._stream)
        if not line:
            return None
        self.number += 1
        return _plain_ending(line).removeprefix(BOM)

    def replay(self, lines: Iterable[str]) -> None:
        """Have `lines` read again, in order, before the rest of the input."""
        self._again.extendleft(reversed(list(lines)))


def _plain_ending(line: str) -> str:
    if line.endswith("\r\n"):
        return line[:-2] + "\n"
    return line.removesuffix("\r")


async def _read_in_daemon(stream: TextIO) -> str:
    """`stream.readline()` in a daemon thread: abandoned, not awaited, when the bot stops."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[str] = loop.create_future()

    def deliver(line: str) -> None:
        if not done.done():
            done.set_result(line)

    def read() -> None:
        line = stream.readline()
        with contextlib.suppress(RuntimeError):  # the loop closed while this thread waited
            loop.call_soon_threadsafe(deliver, line)

    threading.Thread(target=read, name="console-stdin", daemon=True).start()
    return await done
