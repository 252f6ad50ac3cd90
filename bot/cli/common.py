"""Helpers every subcommand shares: settings from the environment, logging set-up."""

from __future__ import annotations

import logging
import os
import sys

import click

from bot.errors import ConfigError
from bot.settings import Settings


def settings_from_env() -> Settings:
    """Build the settings once; a wrong value stops the command, naming the setting."""
    try:
        settings = Settings.load(os.environ)
    except ConfigError as exc:
        click.echo(f"configuration error: {exc}", err=True)
        sys.exit(2)
    logging.basicConfig(
        level=settings.log_level_number,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    return settings
