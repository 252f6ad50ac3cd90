"""`studybot run`, `studybot console` and `studybot doctor`."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys

import click

from adapters.console.adapter import PLATFORM as CONSOLE
from adapters.console.adapter import ConsoleAdapter
from bot.app import open_app, running_scheduler
from bot.cli.common import settings_from_env
from bot.cli.doctor import diagnose
from bot.settings import Settings
from bot.types import Locale


@click.command()
def run() -> None:
    """Start the bot: the chat platforms whose tokens are set, else the console."""
    settings = settings_from_env()
    click.echo("No platform token set: starting the console.", err=True)
    _console(settings, Locale.parse(os.environ.get("LANG")))


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
