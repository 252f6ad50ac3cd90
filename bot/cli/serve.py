"""`studybot run`, `studybot console` and `studybot doctor`.

`run` starts every chat platform whose token is set, side by side in one event loop with the
scheduler: each platform is a coroutine in `platform_runners`, run in one TaskGroup, so one
that stops with an error (a rejected token) stops the others and the bot exits non-zero.
With no token set, `run` opens the console instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Callable, Coroutine
from typing import Any

import click

from adapters.console.adapter import PLATFORM as CONSOLE
from adapters.console.adapter import ConsoleAdapter
from adapters.discord import run as discord_run
from bot.app import App, open_app, running_scheduler
from bot.cli.common import settings_from_env
from bot.cli.doctor import diagnose
from bot.errors import ConfigError
from bot.settings import Settings
from bot.types import Locale

PlatformRunner = Callable[[App], Coroutine[Any, Any, None]]


@click.command()
def run() -> None:
    """Start the bot: the chat platforms whose tokens are set, else the console."""
    settings = settings_from_env()
    runners = platform_runners(settings)
    if not runners:
        click.echo("No platform token set: starting the console.", err=True)
        _console(settings, Locale.parse(os.environ.get("LANG")))
        return
    click.echo(f"Starting {', '.join(runners)}.", err=True)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_serve(settings, runners))
    except* ConfigError as group:
        for exc in group.exceptions:
            click.echo(f"configuration error: {exc}", err=True)
        sys.exit(2)


def platform_runners(settings: Settings) -> dict[str, PlatformRunner]:
    """One coroutine per platform whose token is set; each registers its adapter itself."""
    runners: dict[str, PlatformRunner] = {}
    if (discord := settings.discord) is not None:
        runners["discord"] = lambda app: discord_run.serve(app.core, app.adapters, discord)
    return runners


async def _serve(settings: Settings, runners: dict[str, PlatformRunner]) -> None:
    async with open_app(settings) as app, running_scheduler(app), asyncio.TaskGroup() as group:
        for name, runner in runners.items():
            group.create_task(runner(app), name=name)


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
