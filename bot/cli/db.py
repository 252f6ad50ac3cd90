"""`studybot db ...`: moving a deployment between database engines."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import click

from bot.cli.common import settings_from_env
from bot.errors import StoreError
from bot.settings import POSTGRES_SCHEMES, Secret, safe_dsn
from bot.store.copy import copy_database


@click.group()
def db() -> None:
    """Move a deployment's data between database engines."""


@db.command()
@click.argument("source", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("destination", required=False)
def copy(source: Path, destination: str | None) -> None:
    """Copy the SQLite database SOURCE, whole, into the PostgreSQL DESTINATION.

    DESTINATION is a postgresql:// URL; without it, STUDYBOT_DATABASE's (so the password
    need not appear on a command line; libpq's PGPASSWORD and ~/.pgpass work too). The
    destination must be empty; it is migrated first. The source is only read, in one
    snapshot: stop the bot for the final copy. Every table's rows are counted on both
    sides before the copy commits."""
    settings = settings_from_env(bank=False)
    dsn = Secret(destination) if destination else settings.postgres
    if dsn is None or not dsn.reveal().startswith(POSTGRES_SCHEMES):
        click.echo("db copy: DESTINATION must be a postgresql:// URL (or set "
                   "STUDYBOT_DATABASE to one)", err=True)  # fmt: skip
        sys.exit(2)
    click.echo(f"copying {source} into {safe_dsn(dsn)}")
    try:
        copied = asyncio.run(copy_database(source, dsn.reveal(), _shown))
    except StoreError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    click.echo(f"copied {copied.rows} rows in {len(copied.tables)} tables; every count matches")


def _shown(table: str, rows: int) -> None:
    click.echo(f"  {table}: {rows} rows")
