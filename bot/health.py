"""Whether a process can do its work now: what `/readyz` answers (adapters/telemetry/).

A bot process is ready when its database answers, every platform it started is connected
(the console counts: it attaches as it starts) and its grading sandbox has started (a bot
process on PostgreSQL runs none: graders grade). A grader is ready when its database and
the grading queue in it answer; its sandbox started before it was built. Each check returns
a short reason when not ready, or None, and never waits long: a database that does not
answer within `PATIENCE` seconds is unreachable, so a health check never hangs on one.

Reading the queue's depth is also how a grader's `studybot_grading_queue_depth` is kept
current: at each readiness check and each scrape (`grader_refresh`).
"""

from __future__ import annotations

import asyncio

from bot.app import App, GraderProcess
from bot.grading.queue import depth
from bot.ports import Metrics
from bot.store.db import Database

PATIENCE = 2.0  # seconds a database may take to answer a health check


async def bot_unready(app: App, platforms: int) -> str | None:
    """Why the bot process with `platforms` started platforms is not ready, or None."""
    if (down := await database_down(app.db)) is not None:
        return down
    connected = len(app.platforms.names)
    if connected < platforms:
        return f"platforms connected: {connected} of {platforms}"
    return app.grading.unready() if app.grading is not None else None


async def grader_unready(process: GraderProcess, metrics: Metrics) -> str | None:
    """Why the grader is not ready, or None; its queue's depth recorded on the way."""
    if (down := await database_down(process.db)) is not None:
        return down
    try:
        metrics.queue_depth(await asyncio.wait_for(depth(process.jobs), PATIENCE))
    except Exception as exc:
        return f"grading queue unreachable: {type(exc).__name__}"
    return None


async def grader_refresh(process: GraderProcess, metrics: Metrics) -> None:
    """Bring the queue depth up to date before a scrape (an unreachable queue keeps the
    last value: /readyz says why)."""
    await grader_unready(process, metrics)


async def database_down(db: Database) -> str | None:
    """None when `db` answers a trivial query in time, else a short reason."""
    try:
        await asyncio.wait_for(db.fetch_one("SELECT 1"), PATIENCE)
    except Exception as exc:
        return f"database unreachable: {type(exc).__name__}"
    return None
