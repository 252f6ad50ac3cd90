"""`studybot content ...`: validate the bank, load it into SQLite, import interview reports."""

from __future__ import annotations

import asyncio
import sys

import click

from bot.cli.common import settings_from_env
from bot.content.bank import read_bank
from bot.content.loader import load_bank
from bot.errors import ContentError
from bot.grading.problems import load_problems
from bot.store.database import open_database


@click.group()
def content() -> None:
    """Work with the question bank in the content directory."""


@content.command()
def validate() -> None:
    """Check every content file (judge files too); print `file:line: fault` for each problem."""
    settings = settings_from_env()
    try:
        bank = read_bank(settings.content_dir)
        problems = load_problems(settings.content_dir)
    except ContentError as exc:
        for fault in exc.faults:
            click.echo(str(fault), err=True)
        click.echo(f"{len(exc.faults)} fault(s) in {settings.content_dir}", err=True)
        sys.exit(1)
    tests = sum(len(p.cases) for p in problems.values())
    click.echo(f"ok: {len(bank.questions)} questions, {len(problems)} gradable problems "
               f"({tests} tests) in {settings.content_dir}")  # fmt: skip


@content.command()
def load() -> None:
    """Build or update the database from the content directory (idempotent)."""
    settings = settings_from_env()

    async def go() -> None:
        async with open_database(settings.database) as db:
            report = await load_bank(db, settings.content_dir)
        click.echo(report.summary())

    try:
        asyncio.run(go())
    except ContentError as exc:
        for fault in exc.faults:
            click.echo(str(fault), err=True)
        click.echo("load stopped; the database keeps its last good content", err=True)
        sys.exit(1)


def _register_import() -> None:
    from bot.cli.importing import import_command  # (it imports content's own module)

    content.add_command(import_command)


_register_import()
