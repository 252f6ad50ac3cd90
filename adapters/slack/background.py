"""Work that outlives a request: kept by reference, named, its failure logged, cancelled on close.

Slack wants every request acknowledged within 3 seconds; what takes longer (grading, a slow
lookup) continues here after the ack, never fire-and-forget.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class Background:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def adopt(self, task: asyncio.Task[Any]) -> None:
        """Keep an already started task (one that missed the ack) until it finishes."""
        self._tasks.add(task)
        task.add_done_callback(self._done)

    async def idle(self) -> None:
        """Wait until every task has finished (tests, graceful shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def aclose(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("slack: %s failed", task.get_name(), exc_info=task.exception())
