"""`studybot db ...`: moving a deployment between database engines, backing it up and
restoring it (`bot.store.backup`; on PostgreSQL, pg_dump and pg_restore do that)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

import click

from bot.cli.common import settings_from_env
from bot.errors import StoreError
from bot.settings import POSTGRES_SCHEMES, Secret, Settings, safe_dsn
from bot.store.backup import Copied, backup, restore
from bot.store.copy import copy_database


@click.group()
def db() -> None:
    """Move a deployment's data between database engines, back it up and restore it."""


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


@db.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="replace FILE if it exists")
def backup_command(file: Path, force: bool) -> None:
    """Copy the SQLite database (STUDYBOT_DATABASE) into FILE, consistently, while the bot
    runs (SQLite's online backup). An existing FILE is replaced only with --force."""
    settings = _sqlite_only(settings_from_env(bank=False), "backup")
    _done(lambda: backup(settings.database, file, force=force), f"backed up to {file}")


@db.command("restore")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def restore_command(file: Path) -> None:
    """Restore the backup FILE into STUDYBOT_DATABASE, which must be empty (absent, or no
    tables): a database in use is never overwritten."""
    settings = _sqlite_only(settings_from_env(bank=False), "restore")
    _done(lambda: restore(file, settings.database), f"restored into {settings.database}")


def _sqlite_only(settings: Settings, command: str) -> Settings:
    """On PostgreSQL, say which tool does it (with the DSN's host and database, never its
    password) and stop with status 2."""
    if settings.postgres is None:
        return settings
    where = safe_dsn(settings.postgres)
    tool = ("pg_dump -Fc -f FILE" if command == "backup"
            else "pg_restore --no-owner -d DSN FILE")  # fmt: skip
    click.echo(f"db {command}: STUDYBOT_DATABASE is PostgreSQL ({where}); studybot backs up "
               f"SQLite only. Use PostgreSQL's own tools: {tool} with that DSN (the password "
               "from PGPASSWORD or ~/.pgpass)", err=True)  # fmt: skip
    sys.exit(2)


def _done(work: Callable[[], Copied], said: str) -> None:
    try:
        copied = work()
    except StoreError as exc:
        click.echo(f"{click.get_current_context().command_path}: {exc}", err=True)
        sys.exit(1)
    click.echo(f"{said}: schema v{copied.version}, {copied.tables} tables, {copied.size} bytes")
