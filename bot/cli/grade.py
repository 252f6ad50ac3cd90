"""`studybot grade --problem ID FILE [--json]`: grade a solution file from the shell.

The same sandbox and judge as chat, without a database or a chat platform: for checking a
problem's tests while writing it, and for scripts. Exit status 0 whenever a verdict was
reached (accepted or not), 2 for bad usage or an unknown problem, 1 if grading failed, 3 if
strict isolation refused to grade (a layer is missing: the one line on stderr says which).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import BinaryIO

import click

from adapters.console.render import render
from bot.cli.common import run_graded, settings_from_env
from bot.commands.verdicts import grade_reply
from bot.errors import ContentError
from bot.grades import Grade
from bot.grading import sandboxes
from bot.grading.case_cache import CaseCache
from bot.grading.grader import Grader
from bot.grading.problems import Problem, load_problems
from bot.grading.timing import TIMING_FILE
from bot.settings import Settings
from bot.text.code import NotUtf8, decode_source, extract_code
from bot.types import Locale


@click.command()
@click.option("--problem", "problem_id", required=True, help="coding problem id, e.g. fast-power")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@click.argument("file", type=click.File("rb"))
def grade(problem_id: str, as_json: bool, file: BinaryIO) -> None:
    """Grade FILE (a Python solution, or '-' for stdin) against a coding problem's tests."""
    settings = settings_from_env()
    problem = load_problem(settings.content_dir, problem_id)
    result = run_graded(_grade(settings, problem, extract_code(read_source(file))))
    if as_json:
        click.echo(json.dumps(dataclasses.asdict(result), ensure_ascii=False, indent=2))
    else:
        click.echo(render(grade_reply(result, Locale.EN, problem.id)))


def read_source(file: BinaryIO) -> str:
    """The file's text (UTF-8, BOM or not), or exit 2 saying what is wrong with it."""
    try:
        return decode_source(file.read())
    except NotUtf8 as exc:
        click.echo(f"{file.name}: {exc}", err=True)
        sys.exit(2)


def load_problem(content_dir: Path, problem_id: str) -> Problem:
    """The problem, or exit: 1 if the problems cannot load, 2 if the id is unknown."""
    try:
        problems = load_problems(content_dir, CaseCache(settings_from_env().cache_dir / "cases"))
    except ContentError as exc:
        click.echo(f"the problems cannot be loaded:\n{exc}", err=True)
        sys.exit(1)
    if problem_id not in problems:
        known = ", ".join(sorted(problems)) or "none"
        click.echo(f"unknown problem '{problem_id}'; problems: {known}", err=True)
        sys.exit(2)
    return problems[problem_id]


async def _grade(settings: Settings, problem: Problem, code: str) -> Grade:
    sandbox = sandboxes.sandbox_for(settings, warm=1)
    try:
        await sandboxes.start(sandbox, settings)
        timing = settings.cache_dir / TIMING_FILE
        grader = Grader(sandbox, {problem.id: problem}, timing_cache=timing)
        try:
            return await grader.grade(problem, code)
        finally:
            grader.close()
    finally:
        await sandbox.close()
