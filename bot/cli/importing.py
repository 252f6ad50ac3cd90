"""`studybot content import FILE... [--out DIR] [--dry-run] [--json]`: reports into the bank.

The command only wires and presents: `bot.content.importer` plans (reading the reports and the
bank) and writes. A report that cannot be read or has no questions is rejected on its own; the
others are still imported, and the exit code is 1 so a script notices. `--dry-run` prints the
same plan and writes nothing. `--json` prints exactly one object on stdout::

    {"files": [{"path": str, "rejected": bool, "error": str | null,
                "questions": [{"title": str, "kind": "qa" | "coding", "id": str,
                               "duplicate_of": str | null, "reworded": bool}]}]}

`reworded` marks a likely duplicate: the bank's item asks the same in other words.

`bot.cli.content` registers `import_command` in the `content` group.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from bot.cli.common import settings_from_env
from bot.content.importer import FilePlan, ImportPlan, PlannedQuestion, apply_plan, plan_import


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Content directory to import into (default: STUDYBOT_CONTENT_DIR).",
)
@click.option("--dry-run", is_flag=True, help="Report what would happen; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def import_(files: tuple[Path, ...], out: Path | None, dry_run: bool, as_json: bool) -> None:
    """Turn interview reports (面经) into content files; duplicates get the report as a source."""
    root = out if out is not None else settings_from_env(bank=False).content_dir
    plan = plan_import(root, files)
    if not dry_run:
        apply_plan(plan)
    click.echo(render_json(plan) if as_json else render_summary(plan, dry_run))
    if plan.rejected:
        sys.exit(1)


import_command = import_


def render_json(plan: ImportPlan) -> str:
    return json.dumps({"files": [_file_json(f) for f in plan.files]}, ensure_ascii=False)


def _file_json(file: FilePlan) -> dict[str, Any]:
    return {
        "path": str(file.path),
        "rejected": file.rejected,
        "error": file.error,
        "questions": [
            {
                "title": q.title,
                "kind": q.kind.value,
                "id": q.id,
                "duplicate_of": q.duplicate_of,
                "reworded": q.reworded,
            }
            for q in file.questions
        ],
    }


def render_summary(plan: ImportPlan, dry_run: bool) -> str:
    lines = [line for file in plan.files for line in _file_summary(file)]
    new = sum(q.duplicate_of is None for f in plan.files for q in f.questions)
    duplicates = sum(q.duplicate_of is not None for f in plan.files for q in f.questions)
    rejected = sum(f.rejected for f in plan.files)
    into = "would be imported into" if dry_run else "imported into"
    lines.append(f"{new} new, {duplicates} duplicate(s) {into} {plan.root}; "
                 f"{rejected} report file(s) rejected")  # fmt: skip
    if dry_run:
        lines.append("dry run: nothing was written")
    return "\n".join(lines)


def _file_summary(file: FilePlan) -> list[str]:
    if file.error is not None:
        return [f"{file.path}: rejected: {file.error}"]
    label = f" ({file.source.label()})" if file.source else ""
    return [f"{file.path}{label}: {len(file.questions)} question(s)"] + [
        line for q in file.questions for line in _question_summary(q)
    ]


def _question_summary(q: PlannedQuestion) -> list[str]:
    if q.duplicate_of is None:
        outcome = f"new → {q.path}"
    else:
        note = (
            "written for the bank: source not added"
            if q.authored
            else "source added"
            if q.source_added
            else "source already listed"
        )
        likely = "likely duplicate (reworded)" if q.reworded else "duplicate"
        outcome = f"{likely} of {q.duplicate_of} ({note})"
    return [f"  [{q.kind.value}] {q.title}", f"      {outcome}"]
