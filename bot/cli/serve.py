"""`studybot run`, `studybot console` and `studybot doctor`.

`studybot run` starts every chat platform whose token is set, side by side in one event loop,
with one scheduler posting to all of them; with no platform token it opens the console. Each
platform is an async context manager over the running `App` that registers its adapter in
`app.adapters` and connects; `platforms()` lists the configured ones, so adding a platform is
one entry there.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
import sys
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from typing import Any

import click

from adapters.console.adapter import PLATFORM as CONSOLE
from adapters.console.adapter import ConsoleAdapter
from bot.app import App, open_app, running_scheduler
from bot.cli.common import settings_from_env
from bot.cli.doctor import diagnose
from bot.settings import Settings
from bot.types import Locale

Platform = Callable[[App], AbstractAsyncContextManager[Any]]


def platforms(settings: Settings) -> dict[str, Platform]:
    """The chat platforms configured in `settings`, by name. (Their libraries load only here.)"""
    found: dict[str, Platform] = {}
    if settings.slack is not None:
        from adapters.slack.modes import running_slack

        found["slack"] = functools.partial(running_slack, settings=settings.slack)
    return found


@click.command()
def run() -> None:
    """Start the bot: the chat platforms whose tokens are set, else the console."""
    settings = settings_from_env()
    configured = platforms(settings)
    if not configured:
        click.echo("No platform token set: starting the console.", err=True)
        _console(settings, Locale.parse(os.environ.get("LANG")))
        return
    click.echo(f"Starting: {', '.join(configured)}.", err=True)
    asyncio.run(serve(settings, list(configured.values())))


async def serve(settings: Settings, started: list[Platform]) -> None:
    """Run the platforms and the scheduler until SIGINT or SIGTERM, then stop in order."""
    async with open_app(settings) as app, AsyncExitStack() as stack:
        for platform in started:
            await stack.enter_async_context(platform(app))
        async with running_scheduler(app):
            await _stopped()


async def _stopped() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


@click.command()
@click.option("--locale", type=click.Choice(["en", "zh"]), help="UI language (default: $LANG)")
def console(locale: str | None) -> None:
    """Study in the terminal: the same commands as in chat (/question, /search 显存 ...)."""
    settings = settings_from_env()
    _console(settings, Locale(locale) if locale else Locale.parse(os.environ.get("LANG")))


def _console(settings: Settings, locale: Locale) -> None:
    async def go() -> None:
        async with open_app(settings) as app:
            console = ConsoleAdapter(app.core, sys.stdin, sys.stdout, locale=locale)
            app.adapters[CONSOLE] = console
            async with running_scheduler(app):
                await console.run()

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a terminal user leaves
        asyncio.run(go())


@click.command()
def doctor() -> None:
    """Report settings (secrets masked), database and content status."""
    settings = settings_from_env()
    lines, healthy = asyncio.run(diagnose(settings))
    for line in lines:
        click.echo(line)
    sys.exit(0 if healthy else 1)
