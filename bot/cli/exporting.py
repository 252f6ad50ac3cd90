"""`studybot content export --server ID DIR [--force] [--json]`: a server's items for the bank.

For the bank's maintainers: a server's approved items (`/drafts approve`), read from the
database the bot uses (STUDYBOT_DATABASE or DATABASE_URL, as `studybot run` chooses), are
written under DIR in the bank's format (`bot.content.exporter`), to be copied into the content
directory, checked by `studybot content validate` and proposed as a pull request. Drafts,
rejected items and other servers' items are never written.

`--list-servers` lists the servers that have items (approved, drafts, rejected); an unknown
server is an error that lists them too (status 2). DIR must be empty or new: a non-empty one is
refused (status 2) unless `--force`, which writes over files of the same names and leaves
the others. `--json` prints one object on stdout::

    {"server": str, "dir": str,
     "items": [{"item": "s.<slug>", "id": str, "kind": "qa" | "coding",
                "status": "draft" | "published", "missing": [str], "files": [str]}]}

`missing` says what holds a draft back from publishing; `files` are relative to DIR.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from bot.cli.common import settings_from_env
from bot.content.exporter import ExportPlan, UnsafePath, plan_export, write_export
from bot.errors import StoreError
from bot.settings import Settings
from bot.store.exports import ExportStore, ServerCounts, ServerItem
from bot.store.open import open_store

USAGE = 2


@click.command("export")
@click.argument("out", metavar="DIR", required=False,
                type=click.Path(file_okay=False, path_type=Path))  # fmt: skip
@click.option("--server", help="the server's key, as --list-servers shows it (discord:<id> ...)")
@click.option("--list-servers", is_flag=True, help="list the servers that have items, and stop")
@click.option("--force", is_flag=True, help="write into a non-empty DIR (same names replaced)")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object instead of text")
def export(out: Path | None, server: str | None, list_servers: bool, force: bool,
           as_json: bool) -> None:  # fmt: skip
    """Write a server's approved items into DIR as content files, for the shared bank."""
    settings = settings_from_env()
    if list_servers:
        servers, _ = _read(settings, None)
        click.echo(_servers_json(servers) if as_json else _servers_text(servers))
        return
    if server is None or out is None:
        _fail("give --server ID and DIR (or --list-servers)")
    _check_out(out, force)
    servers, items = _read(settings, server)
    if server not in {s.server for s in servers}:
        _fail(f"no server '{server}' has items in this database; {_known(servers)}")
    plan = plan_export(settings.content_dir, items)
    try:
        write_export(plan, out)
    except (UnsafePath, OSError) as exc:
        _fail(f"cannot write the export: {exc}")
    click.echo(_plan_json(plan, server, out) if as_json else _plan_text(plan, server, out))


def _read(settings: Settings, server: str | None) -> tuple[list[ServerCounts], list[ServerItem]]:
    async def go() -> tuple[list[ServerCounts], list[ServerItem]]:
        async with open_store(settings) as db:
            store = ExportStore(db)
            return await store.servers(), await store.approved(server) if server else []

    try:
        return asyncio.run(go())
    except StoreError as exc:
        click.echo(f"database error: {exc}", err=True)
        sys.exit(USAGE)


def _check_out(out: Path, force: bool) -> None:
    if out.exists() and not out.is_dir():
        _fail(f"{out} is not a directory")
    if out.is_dir() and any(out.iterdir()) and not force:
        _fail(f"{out} is not empty; choose a new directory, or --force to write into it")


def _fail(message: str) -> NoReturn:
    click.echo(f"export: {message}", err=True)
    sys.exit(USAGE)


def _known(servers: list[ServerCounts]) -> str:
    if not servers:
        return "no server has items yet"
    return "servers with items: " + ", ".join(s.server for s in servers)


def _servers_text(servers: list[ServerCounts]) -> str:
    lines = [f"{s.server}  {s.approved} approved, {s.drafts} draft(s), {s.rejected} rejected"
             for s in servers]  # fmt: skip
    return "\n".join(lines) if lines else "no server has items yet"


def _servers_json(servers: list[ServerCounts]) -> str:
    rows = [{"server": s.server, "approved": s.approved, "drafts": s.drafts,
             "rejected": s.rejected} for s in servers]  # fmt: skip
    return json.dumps({"servers": rows}, ensure_ascii=False)


def _plan_json(plan: ExportPlan, server: str, out: Path) -> str:
    items: list[dict[str, Any]] = [
        {"item": i.item, "id": i.id, "kind": i.kind.value, "status": i.status.value,
         "missing": list(i.missing), "files": list(i.files)}
        for i in plan.items
    ]  # fmt: skip
    return json.dumps({"server": server, "dir": str(out), "items": items}, ensure_ascii=False)


def _plan_text(plan: ExportPlan, server: str, out: Path) -> str:
    lines = []
    for item in plan.items:
        held = f" (missing: {', '.join(item.missing)})" if item.missing else ""
        lines.append(f"{item.item} -> {item.files[0]} [{item.status.value}]{held}")
    lines.append(f"{len(plan.items)} approved item(s) of {server} written to {out}; copy them "
                 "into the content directory and run `studybot content validate`")  # fmt: skip
    return "\n".join(lines)
