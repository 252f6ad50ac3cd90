"""`studybot run`, `studybot console` and `studybot doctor`.

`run` starts every chat platform whose token is set, side by side in one event loop with one
scheduler posting to all of them; with no platform token it opens the console instead. Both
go through `serve`, the one way the running bot is built (tests call it too, with their own
clock). Each platform is a coroutine over the running `App` (`platforms()` lists the
configured ones, so adding a platform is one entry there) that connects, attaches its adapter
to `app.platforms` once it can deliver, and runs until cancelled (the console: until its
input ends). They run in one TaskGroup: one that stops with an error (a rejected token) stops
the others and the bot exits non-zero; SIGINT, SIGTERM or a platform that ends (the console's
`/quit`) stops them all in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import signal
import sys
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import click

from adapters.console.adapter import PLATFORM as CONSOLE
from adapters.console.adapter import ConsoleAdapter
from bot.app import App, open_app, running_digest, running_scheduler
from bot.cli.common import interrupted, quiet_console, say, settings_from_env
from bot.cli.doctor import diagnose
from bot.cli.telemetry import open_telemetry
from bot.errors import ConfigError, StoreError
from bot.health import bot_unready
from bot.logs import configure as configure_logs
from bot.ports import Clock
from bot.settings import DiscordSettings, Settings, SlackSettings
from bot.types import Locale

Platform = Callable[[App], Coroutine[Any, Any, None]]


def platforms(settings: Settings) -> dict[str, Platform]:
    """The chat platforms configured in `settings`, by name."""
    found: dict[str, Platform] = {}
    if (discord := settings.discord) is not None:
        found["discord"] = lambda app: _discord(app, discord)
    if (slack := settings.slack) is not None:
        found["slack"] = lambda app: _slack(app, slack)
    return found


async def _discord(app: App, settings: DiscordSettings) -> None:
    from adapters.discord import run as discord_run  # its library loads only when configured

    pacer = app.pacers.pacer("discord", settings.requests_per_second)
    await discord_run.serve(app.core, app.platforms, settings, pacer=pacer)


async def _slack(app: App, settings: SlackSettings) -> None:
    from adapters.slack.modes import running_slack  # its library loads only when configured

    async with running_slack(app, settings=settings):
        await asyncio.Event().wait()  # connected until cancelled


def console_platform(locale: Locale, files: Path) -> Platform:
    """The terminal as a platform: attached from the start, ending when its input does."""

    async def run_console(app: App) -> None:
        console = ConsoleAdapter(app.core, sys.stdin, sys.stdout, locale=locale, files=files)
        await app.platforms.attach(CONSOLE, console)
        try:
            await console.run()
        finally:
            app.platforms.detach(CONSOLE)

    return run_console


@click.command()
def run() -> None:
    """Start the bot: the chat platforms whose tokens are set, else the console."""
    settings = settings_from_env(role="bot")
    configured = platforms(settings)
    try:
        if not configured:
            configure_logs(settings, "console")  # this process is a console from here
            say(settings, "No platform token set: starting the console.")
            _console(settings, Locale.parse(os.environ.get("LANG")))
            return
        say(settings, f"Starting: {', '.join(configured)}.")
        from adapters.network import quiet_network_errors  # (aiohttp loads only to run)

        quiet_network_errors()
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(settings, list(configured.values())))
    except* ConfigError as group:
        for exc in group.exceptions:
            say(settings, f"configuration error: {exc}", logging.ERROR)
        sys.exit(2)
    except* StoreError as refused:  # the database refused (unreachable, its collation ...)
        for fault in refused.exceptions:
            say(settings, f"database error: {fault}", logging.ERROR)
        sys.exit(2)


async def serve(
    settings: Settings,
    started: list[Platform],
    *,
    clock: Clock | None = None,
    grade_here: str | None = None,
) -> int | None:
    """Run the platforms and the scheduler until SIGINT or SIGTERM (or until a platform
    ends), then stop in order; the signal that stopped them, if one did. A signal during
    start-up lets start-up finish and then stops (cancelling it halfway would leave the
    database's thread behind the loop). `clock` is for tests; by default `open_app` picks
    one. `grade_here`: the platform graded in this process on every engine (`open_app`).
    With a metrics port set, /metrics, /healthz and /readyz are served from before start-up
    to the end of shutdown; ready once every started platform is connected."""
    with _signals() as received:
        async with (
            open_telemetry(settings) as telemetry,
            open_app(
                settings, clock=clock, grade_here=grade_here, metrics=telemetry.metrics
            ) as app,
            running_scheduler(app),
            running_digest(app),
            asyncio.TaskGroup() as group,
        ):
            telemetry.watch(functools.partial(bot_unready, app, len(started)))
            tasks = [group.create_task(platform(app)) for platform in started]
            ends: list[asyncio.Future[Any]] = [received, *tasks]
            await asyncio.wait(ends, return_when=asyncio.FIRST_COMPLETED)
            for task in tasks:
                task.cancel()
        return received.result() if received.done() else None


@contextlib.contextmanager
def _signals() -> Iterator[asyncio.Future[int]]:
    """SIGINT and SIGTERM from start-up to the end of shutdown: the first resolves the
    future with its number, and the bot stops in order; later ones change nothing."""
    loop = asyncio.get_running_loop()
    received: asyncio.Future[int] = loop.create_future()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, _resolve, received, int(sig))
    try:
        yield received
    finally:
        received.cancel()  # (no-op once resolved)
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


def _resolve(received: asyncio.Future[int], number: int) -> None:
    if not received.done():
        received.set_result(number)


@click.command()
@click.option("--locale", type=click.Choice(["en", "zh"]), help="UI language (default: $LANG)")
def console(locale: str | None) -> None:
    """Study in the terminal: the same commands as in chat (/question, /search 显存 ...)."""
    settings = settings_from_env(role="console")
    _console(settings, Locale(locale) if locale else Locale.parse(os.environ.get("LANG")))


def _console(settings: Settings, locale: Locale) -> None:
    """The console until its input ends, `/quit` or a signal. Ctrl-C is how a terminal user
    leaves: at the prompt, during start-up or while a reply is made, the bot stops in order
    and says so in one line, with the shell's status for an interrupt (128 + SIGINT)."""
    quiet_console(settings)
    exports = settings.database.parent / "exports"  # beside the data, the user's own
    try:
        console = console_platform(locale, exports)
        stopped_by = asyncio.run(serve(settings, [console], grade_here=CONSOLE))
    except KeyboardInterrupt:  # before the console listened for it, or a second one
        stopped_by = signal.SIGINT
    if stopped_by == signal.SIGINT:
        interrupted(locale)


@click.command()
def doctor() -> None:
    """Report settings (secrets masked), database and content status."""
    settings = settings_from_env()
    lines, healthy = asyncio.run(diagnose(settings))
    for line in lines:
        click.echo(line)
    sys.exit(0 if healthy else 1)
