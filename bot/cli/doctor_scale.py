"""`studybot doctor`'s checks for a deployment past one machine: PostgreSQL, the grading
queue on it, and the Discord shards this process runs.

The PostgreSQL checks only read: one connection with a short timeout (a doctor that hangs on a
firewalled host helps nobody), no pool and no migration (`studybot run` migrates; the doctor
says whether it would have to, or would refuse a newer schema). The DSN is shown through
`safe_dsn` and scrubbed from any error text, so the password never reaches the terminal.

The queue is procrastinate's, in the same database: its `procrastinate_jobs` table tells
how many jobs wait, run and failed. Where the table is absent the queue schema is not
installed, and graders would have nothing to take jobs from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import psycopg

from bot.settings import Secret, Settings, safe_dsn
from bot.store.postgres.database import SCHEMA_VERSION, collation_fault

CONNECT_TIMEOUT = 5  # seconds; libpq's connect_timeout (2 is its least useful value)
QUEUE_TABLE = "procrastinate_jobs"
# procrastinate's job states, as the doctor names them
QUEUE_STATES = (("todo", "waiting"), ("doing", "doing"), ("failed", "failed"))


class Unreachable(Exception):
    """The database could not be reached; the message is safe to show."""


async def _query(dsn: Secret, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Rows of one read-only query on a connection of its own, opened with a short timeout."""
    try:
        conn = await psycopg.AsyncConnection.connect(
            dsn.reveal(), autocommit=True, connect_timeout=CONNECT_TIMEOUT
        )
    except psycopg.Error as exc:
        raise Unreachable(_scrub(" ".join(str(exc).split()), dsn)) from None  # one line
    async with conn:
        cursor = await conn.execute(sql.encode(), params)
        return list(await cursor.fetchall())


def _scrub(text: str, dsn: Secret) -> str:
    password = urlsplit(dsn.reveal()).password
    return text.replace(password, "***") if password else text


async def check_postgres(settings: Settings) -> tuple[list[str], bool]:
    """Reachable, at which schema version against this studybot's, with how many questions."""
    assert settings.postgres is not None
    where = safe_dsn(settings.postgres)
    try:
        [(server, has_schema, has_questions, collate, provider, icu)] = await _query(
            settings.postgres, _STATUS
        )
        version = (await _query(settings.postgres, _VERSION))[0][0] if has_schema else 0
        questions = (await _query(settings.postgres, _QUESTIONS))[0][0] if has_questions else None
    except Unreachable as exc:
        return [f"database: cannot connect to {where}: {exc}"], False
    version = int(version or 0)
    if fault := collation_fault(str(collate), str(provider), icu):
        return [f"database: {where}: {fault}"], False
    if version > SCHEMA_VERSION:
        return [f"database: {where}: schema v{version} is newer than this studybot "
                f"(v{SCHEMA_VERSION}): upgrade studybot"], False  # fmt: skip
    state = ("up to date" if version == SCHEMA_VERSION else
             f"older (this studybot: v{SCHEMA_VERSION}); migrated at the next start")  # fmt: skip
    if version == 0:
        state = f"no schema yet; created at the first start (v{SCHEMA_VERSION})"
    counted = f", {questions} questions" if questions is not None else ""
    return [f"database: {where}, PostgreSQL {server}, schema v{version} {state}{counted}"], True


# The server's version, and which of studybot's tables exist (to_regclass finds a table
# without failing on its absence; a query naming an absent table fails as it is parsed).
_STATUS = """
SELECT current_setting('server_version'), to_regclass('schema_version') IS NOT NULL,
       to_regclass('questions') IS NOT NULL, datcollate, datlocprovider,
       coalesce(to_jsonb(d) ->> 'datlocale', to_jsonb(d) ->> 'daticulocale')
FROM pg_database d WHERE datname = current_database()
"""


_VERSION = "SELECT coalesce(max(version), 0) FROM schema_version"
_QUESTIONS = "SELECT count(*) FROM questions"


async def postgres_schedules(dsn: Secret) -> list[tuple[Any, ...]] | None:
    """Every schedule's platform, channel, paused flag and reason (none without the table);
    None when the database is unreachable (check_postgres has said so)."""
    try:
        [(present,)] = await _query(dsn, "SELECT to_regclass('schedules') IS NOT NULL")
        if not present:
            return []
        return await _query(dsn, "SELECT platform, channel, paused, pause_reason FROM schedules")
    except Unreachable:
        return None


async def check_queue(settings: Settings) -> tuple[list[str], bool]:
    """With PostgreSQL: procrastinate's jobs by state. With SQLite, grading is in-process."""
    if settings.postgres is None:
        return ["queue: none: SQLite grades in the bot's own process"], True
    try:
        [(present,)] = await _query(settings.postgres, "SELECT to_regclass(%s) IS NOT NULL",
                                    (QUEUE_TABLE,))  # fmt: skip
        if not present:
            return [f"queue: queue schema not installed (no {QUEUE_TABLE} table): graders "
                    "have nothing to take submissions from"], False  # fmt: skip
        rows = await _query(settings.postgres, f"SELECT status::text, count(*) FROM "
                            f"{QUEUE_TABLE} GROUP BY status")  # fmt: skip
    except Unreachable:
        return ["queue: unknown (the database is unreachable)"], False
    counts = {str(status): int(n) for status, n in rows}
    shown = ", ".join(f"{counts.get(state, 0)} {name}" for state, name in QUEUE_STATES)
    return [f"queue: procrastinate, {shown}"], True


async def check_shards(settings: Settings) -> tuple[list[str], bool]:
    """What this process runs. Whether the other shards run somewhere cannot be known from
    here: the doctor names them, for the operator to check."""
    discord = settings.discord
    if discord is None:
        return [], True
    if not discord.sharded:
        return ["shards: one gateway connection (DISCORD_SHARD_COUNT not set)"], True
    count = discord.shard_count
    if count is None:
        return ["shards: as many as Discord recommends, all run by this process"], True
    here = discord.shards_here
    lines = [f"shards: {count} in all; this process runs {_ids(here)} ({len(here)} of {count})"]
    elsewhere = sorted(set(range(count)) - set(here))
    if elsewhere:
        lines.append(f"  shards {_ids(tuple(elsewhere))} must each run in one other process "
                     f"with DISCORD_SHARD_COUNT={count} (not visible from here)")  # fmt: skip
    return lines, True


def _ids(ids: tuple[int, ...]) -> str:
    """Shard ids, runs shortened: 0-3, 6."""
    runs: list[list[int]] = []
    for shard in ids:
        if runs and shard == runs[-1][-1] + 1:
            runs[-1].append(shard)
        else:
            runs.append([shard])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)
