"""Waiting for something to happen: poll a condition until it holds, never sleep a fixed time
and then assert. A slow or busy machine makes the wait longer, never the verdict different:
`PATIENCE` is far beyond any honest wait, and a condition that holds returns at once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

PATIENCE = 60.0  # seconds


async def until(condition: Callable[[], object], within: float = PATIENCE) -> None:
    """Return once `condition()` is true; fail after `within` seconds of wall time. It is
    polled every millisecond, so work on other threads or sockets (aiosqlite, a database
    connection) completes meanwhile."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"the condition did not hold within {within} s")
        await asyncio.sleep(0.001)
