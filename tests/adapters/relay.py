"""A TCP relay on 127.0.0.1 that a test switches on and off: the network between the bot and a
local platform stub, which can go down (connections refused, open ones cut) and come back on
the same port."""

from __future__ import annotations

import asyncio
import contextlib
import socket


def free_port() -> int:
    """A port nothing listens on now (the relay takes it when switched on)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Relay:
    def __init__(self, port: int, target: int) -> None:
        self.port, self.target = port, target
        self.connections = 0  # relayed so far
        self._server: asyncio.Server | None = None
        self._open: set[asyncio.StreamWriter] = set()

    async def up(self) -> None:
        """Listen on `port` and relay every connection to `target`."""
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", self.port,
                                                  reuse_address=True)  # fmt: skip

    async def down(self) -> None:
        """Refuse new connections and cut the open ones."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        for writer in list(self._open):
            writer.transport.abort()
        self._open.clear()
        await asyncio.sleep(0)  # the aborted transports close their sockets on the next turn

    async def __aenter__(self) -> Relay:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.down()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.transport.abort()
            return
        self._open |= {writer, up_writer}
        try:
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        finally:
            self._open -= {writer, up_writer}
            for end in (writer, up_writer):
                end.transport.abort()  # both sockets closed, however the relay ended


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError, asyncio.IncompleteReadError):
        while data := await reader.read(1 << 16):
            writer.write(data)
            await writer.drain()
    with contextlib.suppress(OSError):
        writer.close()
