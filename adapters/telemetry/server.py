"""One HTTP server per process: /metrics, /healthz and /readyz.

aiohttp rather than prometheus_client's own server: readiness asks the database, which is
asynchronous and lives on the event loop; the library's server answers from a thread, which
would have to hop onto the loop (and wait on it) for every check. aiohttp is already loaded
by the platforms, serves on the same loop without blocking it, and /metrics still renders
with the official client (`generate_latest`, in a thread: it walks every series).

- `/healthz`: 200 while the process is alive and its loop turns.
- `/readyz`: 200 "ready", or 503 with the reason the process's check gives (bot/health.py);
  503 "starting" until the process is built and its check is set.
- `/metrics`: the registry in Prometheus' text format, after an optional refresh (a
  grader reads its queue depth then).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

log = logging.getLogger(__name__)

Check = Callable[[], Awaitable[str | None]]  # why the process is not ready, or None
Refresh = Callable[[], Awaitable[None]]


class Health:
    """What /readyz and /metrics consult; set once the process is built."""

    def __init__(self) -> None:
        self._check: Check | None = None
        self._refresh: Refresh | None = None

    def watch(self, check: Check, refresh: Refresh | None = None) -> None:
        self._check, self._refresh = check, refresh

    def forget(self) -> None:
        """The process is stopping: not ready again."""
        self._check = self._refresh = None

    async def unready(self) -> str | None:
        if self._check is None:
            return "starting"
        try:
            return await self._check()
        except Exception as exc:  # a check that fails says so, it does not 500
            log.exception("readiness check raised")
            return f"check failed: {type(exc).__name__}"

    async def refresh(self) -> None:
        if self._refresh is not None:
            try:
                await self._refresh()
            except Exception:
                log.exception("metrics refresh raised")


def routes(registry: CollectorRegistry, health: Health) -> web.Application:
    async def healthz(request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def readyz(request: web.Request) -> web.Response:
        reason = await health.unready()
        if reason is None:
            return web.Response(text="ready\n")
        return web.Response(status=503, text=f"not ready: {reason}\n")

    async def metrics(request: web.Request) -> web.Response:
        await health.refresh()
        body = await asyncio.to_thread(generate_latest, registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics)
    return app


@asynccontextmanager
async def serving(
    host: str, port: int, registry: CollectorRegistry, health: Health
) -> AsyncIterator[int]:
    """Serve on `host`:`port` for the duration of the block; yields the port bound (port 0
    asks for any free one)."""
    runner = web.AppRunner(routes(registry, health), access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound = int(runner.addresses[0][1])
        log.info("metrics and health on http://%s:%d/metrics", host, bound)
        yield bound
    finally:
        await runner.cleanup()
