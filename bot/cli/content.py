"""`studybot content ...`: validate the bank, load it into SQLite, import interview reports,
measure how well each problem's tests kill mutants of its reference, and list the mistakes
members reported in its items (`feedback`, bot/cli/feedback.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from bot.cli.common import run_graded, settings_from_env
from bot.content import giveaway
from bot.content.bank import read_bank
from bot.content.loader import load_bank
from bot.errors import ContentError, Fault, StoreError
from bot.grading import proofs, sandboxes
from bot.grading.case_cache import CaseCache
from bot.grading.grader import Grader
from bot.grading.problems import load_problems
from bot.grading.timing import TIMING_FILE
from bot.settings import Settings
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
@click.option("--json", "as_json", is_flag=True, help="print one JSON object: faults, margins")
def validate(no_grade: bool, fresh: bool, as_json: bool) -> None:
    """Check every content file (judge files too); print `file:line: fault` for each problem.

    Each problem's reference solution is then submitted through the sandbox and must be
    accepted using at most a third of its limit, and each of its known-wrong solutions
    (problems/ID/wrong/*.py) rejected; one expected to run out of time must still be running
    at three times the limit. Limits are measured on this machine (bot/grading/timing.py).
    A proof is remembered until the solution, its problem or the grading code changes.
    It fails too when the right option of more than a third of the quick checks is the
    longest of the four (bot/content/giveaway.py).
    Exit status 1 for faults, 3 if strict isolation refuses to grade (a layer is missing)."""
    settings = settings_from_env()
    cache = None
    if not fresh:
        cache = proofs.ProofCache(settings.cache_dir / "proofs.json", settings.content_dir)
    cases = CaseCache(settings.cache_dir / "cases")
    try:
        outcome = run_graded(_validate(settings, grade=not no_grade, cache=cache, cases=cases))
    except ContentError as exc:
        outcome = Validation("", list(exc.faults), [], None)
    if as_json:
        click.echo(json.dumps(outcome.as_json(settings.content_dir), ensure_ascii=False))
    else:
        for line in proofs.margin_lines(outcome.proofs):
            click.echo(line)
        for fault in outcome.faults:
            click.echo(str(fault), err=True)
    if outcome.faults:
        if not as_json:
            click.echo(f"{len(outcome.faults)} fault(s) in {settings.content_dir}", err=True)
        sys.exit(1)
    if not as_json:
        click.echo(f"ok: {outcome.summary} in {settings.content_dir}")


@dataclass(frozen=True, slots=True)
class Validation:
    summary: str
    faults: list[Fault]
    proofs: list[proofs.Proof]  # remembered ones included
    quick_checks: giveaway.Giveaway | None  # None: the bank did not load

    def as_json(self, content_dir: Path) -> dict[str, Any]:
        checks = self.quick_checks.as_json() if self.quick_checks else None
        return {"ok": not self.faults, "summary": self.summary,
                "faults": [str(f) for f in self.faults], "quick_checks": checks,
                "problems": proofs.margins(self.proofs, content_dir)}  # fmt: skip


async def _validate(settings: Settings, *, grade: bool, cache: proofs.ProofCache | None,
                    cases: CaseCache) -> Validation:  # fmt: skip
    """Read and check everything; with `grade`, prove the problems' solutions too. The
    sandbox starts first, so its zygote comes up on another core while the files are read;
    strict isolation refuses (`IsolationRefused`) once it is up, before any solution runs."""
    content_dir = settings.content_dir
    sandbox = sandboxes.sandbox_for(settings, warm=max(1, min(4, os.cpu_count() or 1)))
    started = asyncio.create_task(sandboxes.start(sandbox, settings)) if grade else None
    try:
        bank = await asyncio.to_thread(read_bank, content_dir)
        problems = await asyncio.to_thread(load_problems, content_dir, cases)
        tests = sum(len(p.cases) for p in problems.values())
        figure = giveaway.measure(bank.questions)
        summary = (f"{len(bank.questions)} questions, {len(problems)} gradable problems "
                   f"({tests} tests); {figure.summary()}")  # fmt: skip
        if started is None:
            return Validation(summary, giveaway.faults(figure, content_dir), [], figure)
        attempts, faults = proofs.gather(content_dir, problems.values())
        known = {a: cache.proven(a) if cache else None for a in attempts}
        todo = [a for a, proof in known.items() if proof is None]
        await started
        timing = settings.cache_dir / TIMING_FILE
        grader = Grader(sandbox, problems, proofs.PROVING, timing_cache=timing)
        try:
            results = await proofs.prove(grader, todo, sandbox.warm_target)
        finally:
            grader.close()
        if cache is not None:
            cache.save(results)
        faults += proofs.faults_of(results) + giveaway.faults(figure, content_dir)
        seen = [p for p in known.values() if p is not None] + results
        wrong = sum(not a.reference for a in attempts)
        remembered = (f" ({len(attempts) - len(todo)} of {len(attempts)} proofs remembered)"
                      if cache else "")  # fmt: skip
        return Validation(f"{summary}; references accepted with a margin, {wrong} known-wrong "
                          f"solutions rejected{remembered}", faults, seen, figure)  # fmt: skip
    finally:
        if started is not None:
            # Its error was raised above already, or is moot (a fault came first); a start is
            # let finish before its sandbox is closed.
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await started
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
    except StoreError as exc:  # the database refused (unreachable, its collation ...)
        click.echo(f"database error: {exc}", err=True)
        sys.exit(2)


def _register_import() -> None:
    from bot.cli.exporting import export
    from bot.cli.feedback import feedback
    from bot.cli.importing import import_command  # (it imports content's own module)

    content.add_command(import_command)
    content.add_command(feedback)
    content.add_command(export)


_register_import()
