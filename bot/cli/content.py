"""`studybot content ...`: validate the bank, load it into SQLite, import interview reports,
and measure how well each problem's tests kill mutants of its reference."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

import click

from bot.cli.common import settings_from_env
from bot.content.bank import read_bank
from bot.content.loader import load_bank
from bot.errors import ContentError
from bot.grading import mutants as mutation
from bot.grading import proofs
from bot.grading.case_cache import CaseCache
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import CODE_BLOCK, Problem, load_problem, load_problems
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
    settings = settings_from_env()
    if problem_id is not None and not (settings.content_dir / "problems" / problem_id).is_dir():
        raise click.BadParameter(f"no problem '{problem_id}' in {settings.content_dir}",
                                 param_hint="--problem")  # fmt: skip
    cache = None
    if not fresh:
        cache = mutation.MutantCache(settings.cache_dir / "mutants.json", settings.content_dir)
    cases = CaseCache(settings.cache_dir / "cases")
    started = time.monotonic()
    try:
        reports = asyncio.run(_mutants(settings.content_dir, problem_id, cache, cases))
    except ContentError as exc:
        for fault in exc.faults:
            click.echo(str(fault), err=True)
        sys.exit(1)
    seconds = time.monotonic() - started
    click.echo(_as_json(reports, seconds) if as_json else _as_text(reports, seconds))
    for report in reports:  # a declaration nothing matches any more is a content fault
        for stale in report.stale:
            path = settings.content_dir / "problems" / report.problem / "judge.yaml"
            click.echo(f"{path}:{stale.line}: declared equivalent mutant is not made from "
                       f"the reference ({stale.operator}: {stale.before!r} -> "
                       f"{stale.after!r})", err=True)  # fmt: skip
    sys.exit(0 if all(r.passes for r in reports) else 1)


async def _mutants(content_dir: Path, problem_id: str | None,
                   cache: mutation.MutantCache | None,
                   cases: CaseCache) -> list[mutation.Report]:  # fmt: skip
    """Make every problem's mutants and grade them, the sandbox starting meanwhile."""
    sandbox = Sandbox(warm=max(1, min(4, os.cpu_count() or 1)))
    started = asyncio.create_task(sandbox.start())
    try:
        problems = await asyncio.to_thread(_problems, content_dir, problem_id, cases)
        made = await asyncio.to_thread(_made, content_dir, problems)
        await started
        grader = Grader(sandbox, problems)
        try:
            return await mutation.grade_mutants(grader, made, sandbox.warm_target, cache)
        finally:
            grader.close()
    finally:
        await sandbox.close()


def _problems(content_dir: Path, problem_id: str | None,
              cases: CaseCache) -> dict[str, Problem]:  # fmt: skip
    if problem_id is None:
        return load_problems(content_dir, cases)
    return {problem_id: load_problem(content_dir / "problems" / problem_id, cases)}


def _made(content_dir: Path, problems: dict[str, Problem]) -> list[mutation.Mutant]:
    made = list[mutation.Mutant]()
    for problem in problems:
        text = (content_dir / "problems" / problem / "explanation.md").read_text("utf-8")
        match = CODE_BLOCK.search(text)
        assert match is not None  # load_problem has checked it
        made += mutation.make_mutants(problem, match.group(1))
    return made


def _as_text(reports: list[mutation.Report], seconds: float) -> str:
    """A table of the problems, then each equivalent and each survivor with its diff."""
    width = max([len("problem"), *(len(r.problem) for r in reports)])
    lines = [f"{'problem':<{width}}  mutants  killed  equivalent  survived  killed%"]
    for r in reports:
        flag = "" if r.passes else "  < 90%"
        lines.append(f"{r.problem:<{width}}  {len(r.outcomes):>7}  {r.killed:>6}  "
                     f"{len(r.equivalent):>10}  {len(r.survivors):>8}  "
                     f"{r.killed_ratio:>7.1%}{flag}")  # fmt: skip
    for r in reports:
        for o in r.equivalent:
            assert o.equivalent is not None
            lines += ["", f"{r.problem}: equivalent ({o.mutant.operator}): {o.equivalent.reason}",
                      o.mutant.diff.rstrip("\n")]  # fmt: skip
        for o in r.survivors:
            lines += ["", f"{r.problem}: survivor ({o.mutant.operator})",
                      o.mutant.diff.rstrip("\n")]  # fmt: skip
    weak = [r.problem for r in reports if not r.passes]
    lines.append("")
    if weak:
        lines.append(f"{len(weak)} problem(s) kill under {mutation.THRESHOLD:.0%} of their "
                     f"non-equivalent mutants: {', '.join(weak)}")  # fmt: skip
    lines.append(f"{sum(len(r.outcomes) for r in reports)} mutants of {len(reports)} "
                 f"problem(s) in {seconds:.1f} s")  # fmt: skip
    return "\n".join(lines)


def _as_json(reports: list[mutation.Report], seconds: float) -> str:
    return json.dumps({"problems": [_report_json(r) for r in reports],
                       "threshold": mutation.THRESHOLD, "seconds": round(seconds, 2)},
                      ensure_ascii=False, indent=2)  # fmt: skip


def _report_json(r: mutation.Report) -> dict[str, object]:
    def named(m: mutation.Mutant) -> dict[str, str]:
        return {"operator": m.operator, "before": m.before, "after": m.after}

    return {
        "id": r.problem, "mutants": len(r.outcomes), "killed": r.killed,
        "equivalent": [{**named(o.mutant), "reason": o.equivalent.reason}
                       for o in r.equivalent if o.equivalent is not None],
        "survived": [{**named(o.mutant), "diff": o.mutant.diff} for o in r.survivors],
        "killed_ratio": round(r.killed_ratio, 4), "passes": r.passes,
        "by_verdict": r.by_verdict, "seconds": round(r.seconds, 2),
        "stale": [{"operator": e.operator, "before": e.before, "after": e.after,
                   "line": e.line} for e in r.stale],
    }  # fmt: skip


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
