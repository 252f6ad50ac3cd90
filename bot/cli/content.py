"""`studybot content ...`: validate the bank, load it into SQLite, import interview reports,
and measure how well each problem's tests kill mutants of its reference."""

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
from bot.grading.case_cache import CaseCache
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import load_problems
from bot.store.open import open_store


@click.group()
def content() -> None:
    """Work with the question bank in the content directory."""


@content.command()
@click.option(
    "--no-grade",
    is_flag=True,
    help="skip grading each problem's reference and known-wrong solutions",
)
@click.option("--fresh", is_flag=True, help="prove every solution again, remembered or not")
def validate(no_grade: bool, fresh: bool) -> None:
    """Check every content file (judge files too); print `file:line: fault` for each problem.

    Each problem's reference solution is then submitted through the sandbox and must be
    accepted, and each of its known-wrong solutions (problems/ID/wrong/*.py) rejected. A
    proof is remembered until the solution, its problem or the grading code changes."""
    settings = settings_from_env()
    cache = None
    if not fresh:
        cache = proofs.ProofCache(settings.cache_dir / "proofs.json", settings.content_dir)
    cases = CaseCache(settings.cache_dir / "cases")
    try:
        summary = asyncio.run(_validate(settings.content_dir, grade=not no_grade, cache=cache,
                                        cases=cases))  # fmt: skip
    except ContentError as exc:
        for fault in exc.faults:
            click.echo(str(fault), err=True)
        click.echo(f"{len(exc.faults)} fault(s) in {settings.content_dir}", err=True)
        sys.exit(1)
    click.echo(f"ok: {summary} in {settings.content_dir}")


async def _validate(content_dir: Path, *, grade: bool, cache: proofs.ProofCache | None,
                    cases: CaseCache) -> str:  # fmt: skip
    """Read and check everything; with `grade`, prove the problems' solutions too. The
    sandbox starts first, so its zygote comes up on another core while the files are read."""
    sandbox = Sandbox(warm=max(1, min(4, os.cpu_count() or 1)))
    started = asyncio.create_task(sandbox.start()) if grade else None
    try:
        bank = await asyncio.to_thread(read_bank, content_dir)
        problems = await asyncio.to_thread(load_problems, content_dir, cases)
        tests = sum(len(p.cases) for p in problems.values())
        summary = (f"{len(bank.questions)} questions, {len(problems)} gradable problems "
                   f"({tests} tests)")  # fmt: skip
        if started is None:
            return summary
        attempts, faults = proofs.gather(content_dir, problems.values())
        todo = [a for a in attempts if cache is None or not cache.proven(a)]
        await started
        grader = Grader(sandbox, problems)
        try:
            results = await proofs.prove(grader, todo, sandbox.warm_target)
        finally:
            grader.close()
        if cache is not None:
            cache.save(results)
        faults += proofs.faults_of(results)
        if faults:
            raise ContentError(faults)
        wrong = sum(not a.reference for a in attempts)
        remembered = (f" ({len(attempts) - len(todo)} of {len(attempts)} proofs remembered)"
                      if cache else "")  # fmt: skip
        return (f"{summary}; references accepted, {wrong} known-wrong solutions rejected"
                f"{remembered}")  # fmt: skip
    finally:
        if started is not None:
            await sandbox.close()


@content.command()
@click.option("--problem", "problem_id", help="only this problem (its folder name)")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@click.option("--fresh", is_flag=True, help="grade every mutant again, remembered or not")
def mutants(problem_id: str | None, as_json: bool, fresh: bool) -> None:
    """Grade mutants of each problem's reference solution; print what its tests miss.

    Every mutant mutmut's operators make of the reference is graded through the sandbox,
    and a mutant is killed unless it is accepted. Each survivor is shown as a diff; one that
    computes the same as the reference is declared in judge.yaml under equivalent_mutants.
    Exits 1 if a problem kills under 90% of its non-equivalent mutants."""
    from bot.cli.mutants import run  # libcst's matchers take seconds to import: only here

    run(problem_id, as_json, fresh)


@content.command()
def load() -> None:
    """Build or update the database from the content directory (idempotent)."""
    settings = settings_from_env()

    async def go() -> None:
        async with open_store(settings) as db:
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
