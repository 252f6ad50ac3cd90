"""`studybot content ...`: validate the bank, load it into SQLite, import interview reports."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import click

from bot.cli.common import settings_from_env
from bot.content.bank import read_bank
from bot.content.loader import load_bank
from bot.errors import ContentError
from bot.grading import proofs
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import load_problems
from bot.store.database import open_database


@click.group()
def content() -> None:
    """Work with the question bank in the content directory."""


@content.command()
@click.option(
    "--no-grade",
    is_flag=True,
    help="skip grading each problem's reference and known-wrong solutions",
)
def validate(no_grade: bool) -> None:
    """Check every content file (judge files too); print `file:line: fault` for each problem.

    Each problem's reference solution is then submitted through the sandbox and must be
    accepted, and each of its known-wrong solutions (problems/ID/wrong/*.py) rejected."""
    settings = settings_from_env()
    try:
        summary = asyncio.run(_validate(settings.content_dir, grade=not no_grade))
    except ContentError as exc:
        for fault in exc.faults:
            click.echo(str(fault), err=True)
        click.echo(f"{len(exc.faults)} fault(s) in {settings.content_dir}", err=True)
        sys.exit(1)
    click.echo(f"ok: {summary} in {settings.content_dir}")


async def _validate(content_dir: Path, *, grade: bool) -> str:
    """Read and check everything; with `grade`, prove the problems' solutions too. The
    sandbox starts first, so its zygote comes up on another core while the files are read."""
    sandbox = Sandbox(warm=max(1, min(4, os.cpu_count() or 1)))
    started = asyncio.create_task(sandbox.start()) if grade else None
    try:
        bank = await asyncio.to_thread(read_bank, content_dir)
        problems = await asyncio.to_thread(load_problems, content_dir)
        tests = sum(len(p.cases) for p in problems.values())
        summary = (f"{len(bank.questions)} questions, {len(problems)} gradable problems "
                   f"({tests} tests)")  # fmt: skip
        if started is None:
            return summary
        attempts, faults = proofs.gather(content_dir, problems.values())
        await started
        grader = Grader(sandbox, problems)
        try:
            faults += await proofs.prove(grader, attempts, sandbox.warm_target)
        finally:
            grader.close()
        if faults:
            raise ContentError(faults)
        wrong = sum(not a.reference for a in attempts)
        return f"{summary}; references accepted, {wrong} known-wrong solutions rejected"
    finally:
        if started is not None:
            await sandbox.close()


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
