"""`studybot doctor`: what the bot would run with, and whether it can.

Each check is a small coroutine returning lines and a verdict; later features add their own
checks to `CHECKS`. The database checks follow the engine: a SQLite file, or PostgreSQL with
its grading queue (`doctor_scale`, which also reports the Discord shards this process runs).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.cli.doctor_scale import check_postgres, check_queue, check_shards, postgres_schedules
from bot.content.bank import fingerprint, read_bank
from bot.errors import ContentError, StudybotError
from bot.grading import sandboxes
from bot.grading.case_cache import CaseCache
from bot.grading.problems import load_problems
from bot.settings import Settings
from bot.store.database import SCHEMA_VERSION, fetch_all, open_database
from bot.store.db import SqliteDatabase
from bot.store.ingest import stored_fingerprint
from bot.store.questions import QuestionStore

Check = Callable[[Settings], Awaitable[tuple[list[str], bool]]]


async def check_settings(settings: Settings) -> tuple[list[str], bool]:
    return ["settings:", *(f"  {name} = {value}" for name, value in settings.describe())], True


async def check_content(settings: Settings) -> tuple[list[str], bool]:
    try:
        bank = await asyncio.to_thread(read_bank, settings.content_dir)
    except ContentError as exc:
        faults = [f"  {fault}" for fault in exc.faults[:20]]
        return [f"content: {len(exc.faults)} fault(s) in {settings.content_dir}", *faults], False
    return [f"content: ok, {len(bank.questions)} questions in {settings.content_dir}"], True


async def check_database(settings: Settings) -> tuple[list[str], bool]:
    if settings.postgres is not None:
        return await check_postgres(settings)
    path = settings.database
    if not path.exists():
        return [f"database: {path} does not exist yet (run: studybot content load)"], False
    try:
        async with open_database(path) as db:
            database = SqliteDatabase(db)
            count = len(await QuestionStore(database).ids())
            loaded = await stored_fingerprint(database)
    except StudybotError as exc:
        return [f"database: {exc}"], False
    current = await asyncio.to_thread(fingerprint, settings.content_dir)
    fresh = "up to date" if loaded == current else "older than content (reloads at start)"
    line = f"database: {path}, schema v{SCHEMA_VERSION}, {count} questions, {fresh}"
    return [line], count > 0


async def check_schedules(settings: Settings) -> tuple[list[str], bool]:
    """Schedules by platform; a paused one is reported with its reason (not a failure)."""
    rows: Sequence[Sequence[Any]]
    if settings.postgres is not None:
        found = await postgres_schedules(settings.postgres)
        if found is None:
            return ["schedules: unknown (the database is unreachable)"], True
        rows = found
    elif not settings.database.exists():
        return [], True
    else:
        async with open_database(settings.database) as db:
            rows = await fetch_all(db, "SELECT platform, channel, paused, pause_reason FROM "
                                   "schedules")  # fmt: skip
    active = sum(1 for row in rows if not row[2])
    lines = [f"schedules: {active} active, {len(rows) - active} paused"]
    lines += [f"  paused: {row[0]} #{row[1]}: {row[3] or 'by an admin'}" for row in rows if row[2]]
    return lines, True


async def check_grading(settings: Settings) -> tuple[list[str], bool]:
    """The sandbox starts, each isolation layer (and why one is missing), the problems load.
    In strict mode a missing layer is a fault: `studybot run` would refuse to grade."""
    sandbox = sandboxes.sandbox_for(settings, warm=0)
    try:
        layers = await sandbox.start()
    except (StudybotError, OSError) as exc:
        return [f"grading: the sandbox does not start: {exc}"], False
    finally:
        await sandbox.close()
    mode = "strict" if settings.strict_isolation else "relaxed"
    refused = sandboxes.refusal(settings, layers)
    lines = [f"grading: isolation {mode}" + (" (grading refused: layers missing)" if refused
                                             else "")]  # fmt: skip
    lines += [f"  {name}: {why or 'on'}" for name, why in layers.report.items()]
    lines += [f"  {refused}"] if refused else []
    try:
        problems = await asyncio.to_thread(load_problems, settings.content_dir,
                                           CaseCache(settings.cache_dir / "cases"))  # fmt: skip
    except ContentError as exc:
        return [*lines, *(f"  {fault}" for fault in exc.faults[:20])], False
    return [*lines, f"  problems: {len(problems)}"], refused is None


async def check_discord(settings: Settings) -> tuple[list[str], bool]:
    """The token's shape (no network: `studybot run` says if Discord rejects it)."""
    if settings.discord is None:
        return _off("discord: off (DISCORD_TOKEN not set)", "DISCORD_", settings)
    from adapters.discord.invite import application_id, token_problem  # discord.py, if needed

    problem = token_problem(settings.discord.token.reveal())
    if problem is not None:
        return [f"discord: {problem}"], False
    guilds = ", ".join(map(str, settings.discord.guild_ids))
    where = f"servers {guilds}" if guilds else "globally"
    bot_id = application_id(settings.discord.token.reveal())
    return [f"discord: token looks right (bot {bot_id}), commands registered {where}"], True


async def check_slack(settings: Settings) -> tuple[list[str], bool]:
    """With Slack configured: its mode, and whether Slack accepts the token."""
    if settings.slack is None:
        return _off("slack: not configured (SLACK_BOT_TOKEN not set)", "SLACK_", settings)
    from adapters.slack.modes import probe  # the Slack libraries load only when configured

    return await probe(settings.slack)


def _off(line: str, prefix: str, settings: Settings) -> tuple[list[str], bool]:
    """A platform that is off; a setting of it that is given and would not be accepted once
    its token is set is a problem now, not at the first start with the token."""
    bad = [f"  {fault}" for fault in settings.invalid_idle if fault.startswith(prefix)]
    return [line, *bad], not bad


CHECKS: tuple[Check, ...] = (
    check_settings, check_content, check_database, check_queue, check_schedules, check_grading,
    check_discord, check_shards, check_slack,
)  # fmt: skip


async def diagnose(settings: Settings) -> tuple[list[str], bool]:
    lines: list[str] = []
    healthy = True
    for check in CHECKS:
        found, ok = await check(settings)
        lines += found
        healthy = healthy and ok
    lines.append("ok" if healthy else "problems found")
    return lines, healthy
