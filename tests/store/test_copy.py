"""`studybot db copy`: a running SQLite deployment's whole history moved into PostgreSQL.

The source is a bot built by `open_app` that posted a daily quiz, took answers, reviews and
a submission; it stays open (the bot "running") while the copy reads it. Every table is then
compared row for row on both engines, not only counted.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import aiosqlite
import psycopg
import pytest
from click.testing import CliRunner

from bot.cli import cli
from bot.content.loader import load_bank
from bot.errors import StoreError
from bot.settings import Settings
from bot.store.copy import SEARCH, SEEDED, copy_database
from bot.store.database import open_database
from bot.store.db import Database, SqliteDatabase
from bot.store.postgres.database import open_postgres
from bot.store.postgres.db import PostgresDatabase
from bot.store.postgres.search import PostgresIndex
from bot.store.submissions import SubmissionStore
from tests.fakes import FakeAdapter, FakeClock
from tests.quiz.test_channel_quiz import ALICE, BOB, POSTED, click, content_dir, posted

__all__ = ["content_dir"]  # the quiz bank, as a fixture of this module too


async def _history(db: Database, settings: Settings, clock: FakeClock) -> Path:
    """A deployment with a posted quiz, two answers and a submission: its SQLite file."""
    async with posted(db, settings, clock, FakeAdapter()) as app:
        (post,) = app.platforms.get("test").sent  # type: ignore[union-attr]
        clock.set(POSTED + timedelta(minutes=5))
        await click(app, post.reply, 0, ALICE)
        await click(app, post.reply, 1, BOB)
        await SubmissionStore(app.db).add(ALICE, None, "print('你好')", clock.now())
    return settings.database


async def _sqlite_rows(path: Path, table: str, columns: list[str]) -> list[tuple[object, ...]]:
    async with aiosqlite.connect(path) as db:
        names = ", ".join(columns)
        rows = await db.execute_fetchall(f"SELECT {names} FROM {table} ORDER BY {names}")
    return [tuple(row) for row in rows]


def _pg_rows(dsn: str, table: str, columns: list[str]) -> list[tuple[object, ...]]:
    names = ", ".join(columns)
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(f"SELECT {names} FROM {table} ORDER BY {names}".encode()).fetchall()
    return [tuple(row) for row in rows]


async def test_every_table_arrives_row_for_row_and_the_counts_are_reported(
    loaded_database: Database, settings: Settings, clock: FakeClock, postgres_dsn: str
) -> None:
    source = await _history(loaded_database, settings, clock)
    copied = await copy_database(source, postgres_dsn)
    counts = dict(copied.tables)
    for table in ("questions", "schedules", "daily_posts", "quiz_answers", "activity",
                  "cards", "reviews", "submissions", SEARCH):  # fmt: skip
        assert counts[table] > 0, table
    for table, count in copied.tables:
        if table == SEARCH:
            continue
        async with aiosqlite.connect(source) as db:
            info = await db.execute_fetchall(f"SELECT name FROM pragma_table_info('{table}')")
        columns = [row[0] for row in info]
        expected = await _sqlite_rows(source, table, columns)
        assert len(expected) == count
        assert _pg_rows(postgres_dsn, table, columns) == expected, table


async def test_the_copy_serves_search_and_new_rows_continue_after_the_copied_ids(
    loaded_database: Database, settings: Settings, clock: FakeClock, postgres_dsn: str
) -> None:
    source = await _history(loaded_database, settings, clock)
    await copy_database(source, postgres_dsn)
    async with open_postgres(postgres_dsn, max_size=1) as pool:
        db = PostgresDatabase(pool)
        assert await PostgresIndex(db).matching("KV cache", 5) == ["kv-cache-size"]
        row = await db.fetch_one(
            "INSERT INTO submissions (platform, user_id, user_name, code, state, created_at) "
            "VALUES ('test', 'u9', '', 'x', 'queued', '2026-03-02') RETURNING id"
        )
    async with aiosqlite.connect(source) as db:
        (last,) = await db.execute_fetchall("SELECT max(id) FROM submissions")
    assert row is not None and row[0] == last[0] + 1


def test_the_tables_migrations_fill_are_the_ones_the_copy_replaces(postgres_dsn: str) -> None:
    with psycopg.connect(postgres_dsn) as conn:
        tables = conn.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        ).fetchall()
        filled = {
            name for (name,) in tables if name != "schema_version"
            and conn.execute(f'SELECT count(*) FROM "{name}"'.encode()).fetchone() != (0,)
        }  # fmt: skip
    assert filled == SEEDED


async def test_a_destination_with_rows_is_refused_and_left_as_it_was(
    loaded_database: Database, settings: Settings, clock: FakeClock, postgres_dsn: str
) -> None:
    source = await _history(loaded_database, settings, clock)
    await copy_database(source, postgres_dsn)
    before = _pg_rows(postgres_dsn, "activity", ["id"])
    with pytest.raises(StoreError, match="already holds rows"):
        await copy_database(source, postgres_dsn)
    assert _pg_rows(postgres_dsn, "activity", ["id"]) == before


async def test_a_source_at_another_schema_version_is_refused_and_not_written(
    tmp_path: Path, postgres_dsn: str
) -> None:
    old = tmp_path / "old.sqlite3"
    async with aiosqlite.connect(old) as db:
        await db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        await db.execute("INSERT INTO schema_version VALUES (3)")
        await db.commit()
    stamp = old.stat().st_mtime_ns
    with pytest.raises(StoreError, match="source is at schema v3"):
        await copy_database(old, postgres_dsn)
    assert old.stat().st_mtime_ns == stamp
    with pytest.raises(StoreError, match="no SQLite database"):
        await copy_database(tmp_path / "missing.sqlite3", postgres_dsn)


async def _create(path: Path, content: Path) -> None:
    async with open_database(path) as db:
        await load_bank(SqliteDatabase(db), content)


def test_the_command_copies_and_never_prints_the_password(
    tmp_path: Path, content_dir: Path, postgres_dsn: str
) -> None:
    source = tmp_path / "fresh.sqlite3"
    asyncio.run(_create(source, content_dir))  # a new deployment: the bank, no members yet
    runner = CliRunner()
    with_password = postgres_dsn.replace("@", ":hunter2@", 1)
    result = runner.invoke(cli, ["db", "copy", str(source), postgres_dsn])
    assert result.exit_code == 0, result.output
    assert "every count matches" in result.output
    refused = runner.invoke(cli, ["db", "copy", str(source), with_password])
    assert refused.exit_code == 1 and "hunter2" not in refused.output
    wrong = runner.invoke(cli, ["db", "copy", str(source), "mysql://x"])
    assert wrong.exit_code == 2 and "postgresql://" in wrong.output
