"""`studybot content feedback`: the mistakes members reported in the shared bank's items.

For the bank's maintainers: every server's reports on items of the shared bank (a server's
own items are its moderators' business), oldest first, each with the item's file under the
content directory where there is one, so a fix starts at the right file. Open reports by
default, `--all` for resolved ones too (with the moderator's note); `--json` for tools.
Reporters are not named: the text is about the bank, not about them.

Members wrote the text: it is printed on one line each, control characters shown as `?`, so
nothing a member typed can move the cursor or recolour an operator's terminal.
"""

from __future__ import annotations

import asyncio
import json
import sys
import unicodedata
from pathlib import Path
from typing import Any

import click

from bot.cli.common import settings_from_env
from bot.content.bank import content_files
from bot.errors import StoreError
from bot.settings import Settings
from bot.store.mistakes import MistakeStore, Report
from bot.store.open import open_store


@click.command("feedback")
@click.option("--open/--all", "open_only", default=True,
              help="only open reports (the default), or resolved ones too")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="print one JSON object instead of text")
def feedback(open_only: bool, as_json: bool) -> None:
    """List the mistakes members reported in the shared bank's items, every server's."""
    settings = settings_from_env()
    try:
        reports = asyncio.run(_reports(settings, open_only))
    except StoreError as exc:
        click.echo(f"database error: {exc}", err=True)
        sys.exit(2)
    files = _files(settings.content_dir)
    if as_json:
        click.echo(json.dumps({"reports": [_as_json(r, files) for r in reports]},
                              ensure_ascii=False, indent=2))  # fmt: skip
        return
    for report in reports:
        click.echo(_as_text(report, files))
    click.echo(f"{len(reports)} {'open ' if open_only else ''}report(s)")


async def _reports(settings: Settings, open_only: bool) -> list[Report]:
    async with open_store(settings) as db:
        return await MistakeStore(db).on_shared_items(open_only=open_only)


def _files(content: Path) -> dict[str, str]:
    """Each item's main file, relative to the content directory, by item id."""
    return {item: str(path.relative_to(content)) for path, item in content_files(content)}


def _as_json(report: Report, files: dict[str, str]) -> dict[str, Any]:
    resolved = report.resolved_at.isoformat() if report.resolved_at else None
    return {"id": report.id, "item": report.item, "file": files.get(report.item),
            "server": report.server, "state": report.state, "quote": report.quote,
            "text": report.text, "note": report.note,
            "reported_at": report.created_at.isoformat(),
            "resolved_at": resolved}  # fmt: skip


def _as_text(report: Report, files: dict[str, str]) -> str:
    head = " ".join((f"#{report.id}", report.item, files.get(report.item, "(no file)"),
                     f"[{report.state}]", report.server,
                     report.created_at.strftime("%Y-%m-%d %H:%M UTC")))  # fmt: skip
    lines = [head]
    if report.quote:
        lines.append(f"  quote: {_one_line(report.quote)}")
    lines.append(f"  wrong: {_one_line(report.text)}")
    if report.note is not None:
        lines.append(f"  note:  {_one_line(report.note)}")
    return "\n".join(lines)


def _one_line(text: str) -> str:
    """`text` on one line (breaks as ⏎), every other control character shown as `?`."""
    flat = " ⏎ ".join(line.strip() for line in text.strip().splitlines())
    return "".join("?" if unicodedata.category(c) in ("Cc", "Cf") else c for c in flat)
