"""`studybot content mutants`: make each problem's mutants, grade them in the sandbox, and
print the scores as a table and survivors' diffs, or as JSON (bot/grading/mutants.py holds
the design). Imported only when the command runs: libcst takes seconds to import."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from pathlib import Path

import click

from bot.cli.common import run_graded, settings_from_env
from bot.errors import ContentError
from bot.grading import mutants as mutation
from bot.grading import sandboxes
from bot.grading.case_cache import CaseCache
from bot.grading.grader import Grader
from bot.grading.problems import CODE_BLOCK, Problem, load_problem, load_problems
from bot.grading.timing import TIMING_FILE
from bot.settings import Settings


def run(problem_id: str | None, as_json: bool, fresh: bool) -> None:
    """The command: exit 1 if a problem's tests kill under 90% of its mutants, 3 if strict
    isolation refuses to grade (a layer is missing), else 0."""
    settings = settings_from_env()
    if problem_id is not None and not (settings.content_dir / "problems" / problem_id).is_dir():
        raise click.BadParameter(f"no problem '{problem_id}' in {settings.content_dir}",
                                 param_hint="--problem")  # fmt: skip
    cache = mutation.MutantCache(settings.cache_dir / "mutants.json", settings.content_dir,
                                 fresh=fresh)  # fmt: skip
    cases = CaseCache(settings.cache_dir / "cases")
    started = time.monotonic()
    try:
        reports = run_graded(_mutants(settings, problem_id, cache, cases))
    except ContentError as exc:
        for fault in exc.faults:
            click.echo(str(fault), err=True)
        sys.exit(1)
    seconds = time.monotonic() - started
    click.echo(_as_json(reports, seconds) if as_json else _as_text(reports, seconds))
    _warn_stale(settings.content_dir, reports)
    sys.exit(0 if all(r.passes for r in reports) else 1)


def _warn_stale(content_dir: Path, reports: list[mutation.Report]) -> None:
    """A declaration no mutant matches any more is a content fault: say where it is. It does
    not fail the command, whose status is the tests' strength alone."""
    for report in reports:
        for stale in report.stale:
            path = content_dir / "problems" / report.problem / "judge.yaml"
            click.echo(f"{path}:{stale.line}: declared equivalent mutant is not made from "
                       f"the reference ({stale.operator}: {stale.before!r} -> "
                       f"{stale.after!r})", err=True)  # fmt: skip


async def _mutants(settings: Settings, problem_id: str | None,
                   cache: mutation.MutantCache | None,
                   cases: CaseCache) -> list[mutation.Report]:  # fmt: skip
    """Make every problem's mutants and grade them, the sandbox starting meanwhile (strict
    isolation refuses once it is up, before any mutant runs)."""
    content_dir = settings.content_dir
    sandbox = sandboxes.sandbox_for(settings, warm=max(1, min(4, os.cpu_count() or 1)))
    started = asyncio.create_task(sandboxes.start(sandbox, settings))
    try:
        problems = await asyncio.to_thread(_problems, content_dir, problem_id, cases)
        made = await asyncio.to_thread(_made, content_dir, problems)
        await started
        grader = Grader(sandbox, problems, timing_cache=settings.cache_dir / TIMING_FILE)
        try:
            return await mutation.grade_mutants(grader, made, sandbox.warm_target, cache)
        finally:
            grader.close()
    finally:
        # Its error was raised above already, or is moot (a fault came first); a start is
        # let finish before its sandbox is closed.
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await started
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
