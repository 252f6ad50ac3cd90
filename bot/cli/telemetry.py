"""The metrics server of a process, built from settings: a `Telemetry` whose `metrics` the
process is built with and whose `watch` sets what /readyz asks once it is built.

Without `STUDYBOT_METRICS_PORT` nothing is served and nothing is imported: the metrics are
`NoMetrics` and `watch` does nothing. With it, prometheus_client and the aiohttp server
(adapters/telemetry/) load here, and the server starts before the rest of the process, so
/healthz answers during start-up and /readyz says "starting" until `watch`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.ports import Metrics, NoMetrics
from bot.settings import Settings

if TYPE_CHECKING:
    from adapters.telemetry.server import Health

Check = Callable[[], Awaitable[str | None]]
Refresh = Callable[[], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Telemetry:
    metrics: Metrics
    health: Health | None = None  # None: no server
    port: int | None = None  # the port bound

    def watch(self, check: Check, refresh: Refresh | None = None) -> None:
        if self.health is not None:
            self.health.watch(check, refresh)


@asynccontextmanager
async def open_telemetry(settings: Settings) -> AsyncIterator[Telemetry]:
    """The metrics server for the duration of the block, if `settings` ask for one."""
    if (endpoint := settings.metrics) is None:
        yield Telemetry(NoMetrics())
        return
    from prometheus_client import CollectorRegistry

    from adapters.telemetry.prometheus import PrometheusMetrics
    from adapters.telemetry.server import Health, serving

    metrics, health = PrometheusMetrics(CollectorRegistry()), Health()
    async with serving(endpoint.host, endpoint.port, metrics.registry, health) as port:
        try:
            yield Telemetry(metrics, health, port)
        finally:
            health.forget()
