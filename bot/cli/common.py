"""Helpers every subcommand shares: settings from the environment, logging set-up, how a
command that grades ends when strict isolation refuses it, and leaving after Ctrl-C."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from collections.abc import Coroutine
from typing import Any, NoReturn, TypeVar

import click

from bot.errors import ConfigError, IsolationRefused
from bot.hardening import forget_secrets
from bot.i18n import t
from bot.logs import configure as configure_logs
from bot.settings import DOCS, Settings
from bot.types import Locale

INTERRUPTED = 128 + signal.SIGINT  # the exit status a shell gives a process Ctrl-C stopped

T = TypeVar("T")


def settings_from_env(*, bank: bool = True, role: str = "cli") -> Settings:
    """Build the settings once; a wrong value stops the command, naming the setting. Secrets
    leave the environment once read. The log is set up for a process in `role` (bot,
    grader, console or cli: `bot.logs`)."""
    try:
        settings = Settings.load(os.environ)
        if bank:  # every command but an import (which may create it) reads the bank
            settings.check_bank()
    except ConfigError as exc:
        click.echo(f"configuration error: {exc}", err=True)
        sys.exit(2)
    forget_secrets(doc.name for doc in DOCS if doc.secret)  # the settings hold them now
    configure_logs(settings, role)
    return settings


def say(settings: Settings, line: str, level: int = logging.INFO) -> None:
    """A line for the operator on stderr: as it always was, or, with the JSON log format,
    as a log record (a collector reading stderr then parses every line)."""
    if settings.log_format == "json":
        logging.getLogger("bot.cli").log(level, "%s", line)
    else:
        click.echo(line, err=True)


REFUSED = 3  # exit status of a command that strict isolation stopped before it graded anything


def run_graded(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)` for a command that grades: if strict isolation refuses it (a layer
    is missing), one line says which and how to accept the risk, and the status is `REFUSED`."""
    try:
        return asyncio.run(main)
    except IsolationRefused as exc:
        refuse(exc)


def refuse(exc: IsolationRefused) -> NoReturn:
    click.echo(f"{click.get_current_context().command_path}: {exc}", err=True)
    sys.exit(REFUSED)


def quiet_console(settings: Settings) -> None:
    """In the console the log shares the terminal with the prompt: unless STUDYBOT_LOG_LEVEL
    says otherwise, only warnings and errors are written (to stderr). Its lines say the
    process is a console (`studybot run` without a platform token becomes one)."""
    configure_logs(settings, "console")
    if not settings.log_level_given:
        logging.getLogger().setLevel(logging.WARNING)


def interrupted(locale: Locale | None = None) -> NoReturn:
    """Leave after Ctrl-C: one line, on a fresh line after a prompt, in `locale` (else
    `$LANG`'s), and status 130; never a traceback."""
    words = t(locale or Locale.parse(os.environ.get("LANG")), "cli.interrupted")
    click.echo(("\n" if sys.stdout.isatty() else "") + words, err=True)
    sys.exit(INTERRUPTED)
