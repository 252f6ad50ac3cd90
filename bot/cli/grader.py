"""`studybot grader`: a grading worker process, on any machine that reaches the database.

It takes submissions from the PostgreSQL queue (procrastinate) one or `--concurrency` at a
time, grades them in its own sandbox against the problems of its content directory (the same
bank as the bots'), records the verdicts and wakes the bot processes that wait for them;
with the others it puts back the jobs of graders that died (see bot/grading/worker.py).
Run one per core; SIGTERM or Ctrl-C stops it after the job in hand. Exit status 2 for a
wrong setting or an unreachable database, 3 if strict isolation refuses to grade (a layer is
missing): it takes no job it cannot grade.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sys

import click

from bot.app import GraderOptions, open_grader
from bot.cli.common import refuse, say, settings_from_env
from bot.cli.telemetry import open_telemetry
from bot.errors import ConfigError, IsolationRefused, StoreError
from bot.health import grader_refresh, grader_unready
from bot.settings import Settings

DEFAULTS = GraderOptions()


@click.command()
@click.option("--concurrency", default=1, show_default=True, type=click.IntRange(1, 64),
              help="gradings at once in this process (each takes a core)")  # fmt: skip
@click.option("--heartbeat", default=DEFAULTS.heartbeat, show_default=True,
              type=click.FloatRange(0.1),
              help="seconds between this grader's heartbeats")  # fmt: skip
@click.option("--stalled-after", default=DEFAULTS.stalled_after, show_default=True,
              type=click.FloatRange(0.5),
              help="seconds of a grader's silence after which its jobs are retried")  # fmt: skip
def grader(concurrency: int, heartbeat: float, stalled_after: float) -> None:
    """Grade queued submissions (needs STUDYBOT_DATABASE=postgresql://…)."""
    settings = settings_from_env(role="grader")
    options = GraderOptions(concurrency, heartbeat, stalled_after, sweep_every=heartbeat)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_grade(settings, options))
    except (ConfigError, StoreError) as exc:
        say(settings, f"error: {exc}", logging.ERROR)
        sys.exit(2)
    except IsolationRefused as exc:
        refuse(exc)


async def _grade(settings: Settings, options: GraderOptions) -> None:
    """The grader, with its metrics server when a port is set (from before the sandbox
    starts: /readyz says "starting" until jobs can be taken)."""
    async with (
        open_telemetry(settings) as telemetry,
        open_grader(settings, options=options, metrics=telemetry.metrics) as process,
    ):
        telemetry.watch(
            functools.partial(grader_unready, process, telemetry.metrics),
            functools.partial(grader_refresh, process, telemetry.metrics),
        )
        say(settings, "grader ready: taking jobs")
        await process.run()
