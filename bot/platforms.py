"""The chat platforms the bot is connected to right now, and what happens when that changes.

A platform *attaches* when it can deliver: Discord once its gateway session is ready (and
again after a resume), Slack once its socket is connected or its HTTP server listens, the
console at start. It *detaches* when it stops. Adapters tell the registry; the registry tells
its listeners (the scheduler), so the order in which platforms connect, and whether the
scheduler loop already runs, make no difference: attaching loads that platform's schedules,
recovers what an earlier run left unfinished there, and wakes the loop.

Attaching the same platform again (a reconnect) is safe: listeners treat it as "deliver what
waited", never as a second load. The core asks `get(name)` at the moment it sends, so a post
to a platform that went away is parked, not lost.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Protocol

from bot.ports import ChatAdapter, Metrics, NoMetrics

log = logging.getLogger(__name__)


class PlatformListener(Protocol):
    async def attached(self, name: str) -> None:
        """`name` can deliver now (for the first time in this run, or again)."""
        ...

    def detached(self, name: str) -> None:
        """`name` went away; posts to it must wait for it to attach again."""
        ...


class Platforms:
    """Attached chat adapters by platform name (`discord`, `slack`, `console`)."""

    def __init__(self, attached: Mapping[str, ChatAdapter] | None = None,
                 metrics: Metrics | None = None) -> None:  # fmt: skip
        """`attached`: platforms already connected; listeners catch up when they start.
        `metrics` counts reconnects: a platform attached after it had been once (a
        resumed gateway session, a reconnected socket)."""
        self._adapters: dict[str, ChatAdapter] = dict(attached or {})
        self._listeners: list[PlatformListener] = []
        self._seen: set[str] = set(self._adapters)
        self._metrics: Metrics = metrics or NoMetrics()

    def subscribe(self, listener: PlatformListener) -> None:
        self._listeners.append(listener)

    async def attach(self, name: str, adapter: ChatAdapter) -> None:
        """Record `adapter` as how to reach `name`, then let every listener catch up."""
        again = name in self._adapters
        if name in self._seen:
            self._metrics.reconnect(name)
        self._seen.add(name)
        self._adapters[name] = adapter
        log.info("platform %s %s", name, "attached again" if again else "attached")
        for listener in self._listeners:
            await listener.attached(name)

    def detach(self, name: str) -> None:
        """Forget `name`'s adapter (idempotent)."""
        if self._adapters.pop(name, None) is not None:
            log.info("platform %s detached", name)
            for listener in self._listeners:
                listener.detached(name)

    def get(self, name: str) -> ChatAdapter | None:
        return self._adapters.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._adapters

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self._adapters)
