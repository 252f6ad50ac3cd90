"""`studybot sandbox exec FILE [--json] [--without LAYER]`: the escape drill, for operators.

Runs FILE as plain Python (no restricted compiler, no rules) in a grading worker with every
isolation layer the kernel allows and a submission's limits, and prints what it printed,
how it ended, and the layers. Exit status 0 when it ran (whatever the code did), 2 for bad
usage, 3 if strict isolation refused it. `--without` turns a layer off, to see that the
others hold without it.

Strict isolation (STUDYBOT_GRADING_ISOLATION) holds here too, but a layer turned off with
`--without` is the operator's choice, not a refusal: the drill is refused only when a layer
it did not turn off is missing (bot/grading/sandboxes.py). So on a host whose kernel refuses
namespaces, the strict drill runs with `--without namespaces`, and says so in its layers.
"""

from __future__ import annotations

import json
from typing import BinaryIO

import click

from bot.cli.common import run_graded, settings_from_env
from bot.cli.grade import load_problem as _problem
from bot.cli.grade import read_source
from bot.grading import sandboxes
from bot.grading.drill import DrillResult, run_drill
from bot.grading.problems import Problem
from bot.settings import Settings

OPTIONAL_LAYERS = ("namespaces", "landlock", "seccomp")


@click.group(name="sandbox")
def sandbox_group() -> None:
    """The grading sandbox: drills for operators."""


@sandbox_group.command(name="exec")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@click.option("--without", multiple=True, type=click.Choice(OPTIONAL_LAYERS),
              help="turn an isolation layer off (repeatable); strict isolation does not "
                   "count it as missing")  # fmt: skip
@click.option("--problem", "problem_id", help="call FILE's function on this problem's tests")
@click.argument("file", type=click.File("rb"))
def exec_command(as_json: bool, without: tuple[str, ...], problem_id: str | None,
                 file: BinaryIO) -> None:  # fmt: skip
    """Run FILE ('-' for stdin) as plain Python inside a grading worker."""
    settings = settings_from_env()
    problem = _problem(settings.content_dir, problem_id) if problem_id else None
    code = read_source(file)
    result = run_graded(_drill(settings, code, frozenset(without), problem))
    if as_json:
        click.echo(json.dumps(result.as_json(), ensure_ascii=False))
    else:
        click.echo(_text(result))


async def _drill(settings: Settings, code: str, without: frozenset[str],
                 problem: Problem | None) -> DrillResult:  # fmt: skip
    sandbox = sandboxes.sandbox_for(settings, warm=1, without=without)
    try:
        await sandboxes.start(sandbox, settings, without)
        return await run_drill(sandbox, code, problem)
    finally:
        await sandbox.close()


def _text(result: DrillResult) -> str:
    layers = [f"  {name}: {why or 'on'}" for name, why in result.layers.items()]
    tests = [f"  {json.dumps(t, ensure_ascii=False)[:300]}" for t in result.tests]
    return "\n".join([f"exit: {result.exit} ({result.ended})", "stdout:", result.stdout,
                      "stderr:", result.stderr, *(["tests:", *tests] if tests else []),
                      "layers:", *layers])  # fmt: skip
