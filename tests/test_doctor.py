from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.doctor import diagnose
from bot.content.bank import read_bank
from bot.settings import Settings
from bot.store.db import SqliteDatabase
from tests.fakes import REPO
from tests.waiting import PATIENCE


async def test_doctor_reports_a_missing_database_then_a_healthy_one(tmp_path: Path) -> None:
    settings = Settings.from_mapping({"STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3"),
                                      "STUDYBOT_CONTENT_DIR": str(REPO / "content")})  # fmt: skip
    lines, healthy = await diagnose(settings)
    assert not healthy
    assert any("does not exist yet" in line for line in lines)
    shipped = len(read_bank(REPO / "content").questions)
    assert f"content: ok, {shipped} questions" in "\n".join(lines)

    from bot.content.loader import load_bank
    from bot.store.database import open_database

    async with open_database(settings.database) as db:
        await load_bank(SqliteDatabase(db), settings.content_dir)
    lines, healthy = await diagnose(settings)
    assert healthy, lines
    assert f"{shipped} questions, up to date" in "\n".join(lines)
    assert "STUDYBOT_LOG_LEVEL = INFO" in "\n".join(lines)
    assert "schedules: 0 active, 0 paused" in lines
    grading = lines.index("grading: isolation relaxed")  # no platform token: the console's
    assert lines[grading + 1 : grading + 3] == ["  process: on", "  rlimits: on"]
    shipped_problems = len(list((REPO / "content" / "problems").glob("*/judge.yaml")))
    assert f"  problems: {shipped_problems}" in lines

    async with open_database(settings.database) as db:
        await db.execute(
            "INSERT INTO schedules (platform, channel, post_time, timezone, days, answer, paused,"
            " pause_reason) VALUES ('slack', 'C1', '09:00', 'UTC', 127, '+8h', 1, 'not_in_channel')"
        )
    lines, healthy = await diagnose(settings)
    assert healthy and "  paused: slack #C1: not_in_channel" in lines


async def test_doctor_checks_the_discord_token_shape_and_masks_it(tmp_path: Path) -> None:
    from bot.cli.doctor import check_discord

    base = {"STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3")}
    lines, ok = await check_discord(Settings.from_mapping(base))
    assert ok and lines == ["discord: off (DISCORD_TOKEN not set)"]
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"
    settings = Settings.from_mapping({**base, "DISCORD_TOKEN": token, "DISCORD_GUILD_IDS": "42"})
    lines, ok = await check_discord(settings)
    assert ok and lines == ["discord: token looks right (bot 123456789012345678), "
                            "commands registered servers 42"]  # fmt: skip
    described, _ = await diagnose(settings)
    assert token not in "\n".join(described) and "DISCORD_TOKEN = MTIz…(" in "\n".join(described)
    lines, ok = await check_discord(Settings.from_mapping({**base, "DISCORD_TOKEN": "hunter2"}))
    assert not ok and "does not look like a bot token" in lines[0]


async def test_doctor_names_a_broken_judge_file(tmp_path: Path) -> None:
    import shutil

    from bot.cli.doctor import check_grading

    content = tmp_path / "content"
    shutil.copytree(REPO / "content", content)
    judge = content / "problems" / "fast-power" / "judge.yaml"
    judge.write_text(judge.read_text().replace("checker: close", "checker: nearly"))
    settings = Settings.from_mapping({"STUDYBOT_CONTENT_DIR": str(content)})
    lines, healthy = await check_grading(settings)
    assert not healthy
    assert any("fast-power/judge.yaml:" in line and "checker must be one of" in line
               for line in lines)  # fmt: skip


# --- PostgreSQL, the queue and the shards, through the command line ----------------------


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for this module's doctors: the problems' expected results are computed once."""
    return tmp_path_factory.mktemp("cache")


def doctor(cache: Path, **env: str) -> tuple[int, str]:
    """`studybot doctor` with these settings over the shipped bank: (exit code, output)."""
    from click.testing import CliRunner

    from bot.cli.serve import doctor as command

    base = {"STUDYBOT_CONTENT_DIR": str(REPO / "content"), "STUDYBOT_CACHE_DIR": str(cache)}
    result = CliRunner().invoke(command, [], env={**base, **env})
    return result.exit_code, result.output


def with_password(dsn: str, password: str = "hunter2-secret") -> str:
    """The same DSN with a password (the test cluster trusts loopback, so any one works)."""
    return dsn.replace("postgres@", f"postgres:{password}@", 1)


def test_doctor_on_postgres_names_the_schema_and_an_absent_queue(
    cache: Path, postgres_dsn: str
) -> None:
    from bot.store.postgres.database import SCHEMA_VERSION

    code, output = doctor(cache, STUDYBOT_DATABASE=with_password(postgres_dsn))
    assert "hunter2-secret" not in output
    where = postgres_dsn  # shown as user@host:port/database, no password
    assert f"database: {where}, PostgreSQL 15" in output, output
    assert f"schema v{SCHEMA_VERSION} up to date, 0 questions" in output
    assert "queue: queue schema not installed (no procrastinate_jobs table)" in output
    assert code == 1 and output.rstrip().endswith("problems found")


def test_doctor_counts_the_queue_by_state(cache: Path, postgres_dsn: str) -> None:
    import psycopg

    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE procrastinate_jobs (id serial PRIMARY KEY, status text)")
        for status, n in (("todo", 3), ("doing", 1), ("failed", 2), ("succeeded", 5)):
            for _ in range(n):
                conn.execute("INSERT INTO procrastinate_jobs (status) VALUES (%s)", (status,))
    code, output = doctor(cache, STUDYBOT_DATABASE=postgres_dsn)
    assert "queue: procrastinate, 3 waiting, 1 doing, 2 failed" in output, output
    assert code == 0 and output.rstrip().endswith("ok")


def test_doctor_refuses_a_newer_schema_and_reports_an_empty_database(
    cache: Path, postgres_dsn: str, empty_postgres_dsn: str
) -> None:
    import psycopg

    from bot.store.postgres.database import SCHEMA_VERSION

    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (SCHEMA_VERSION + 1,))
    code, output = doctor(cache, STUDYBOT_DATABASE=postgres_dsn)
    assert f"schema v{SCHEMA_VERSION + 1} is newer than this studybot (v{SCHEMA_VERSION})" in output
    assert code == 1
    code, output = doctor(cache, STUDYBOT_DATABASE=empty_postgres_dsn)
    assert f"schema v0 no schema yet; created at the first start (v{SCHEMA_VERSION})" in output
    with psycopg.connect(empty_postgres_dsn) as conn:  # the doctor only read
        found = conn.execute("SELECT to_regclass('schema_version')").fetchone()
    assert found == (None,)


def test_doctor_says_an_unreachable_database_without_its_password(cache: Path) -> None:
    import socket

    with socket.socket() as unused:  # a port nobody listens on
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    dsn = f"postgresql://studybot:hunter2-secret@127.0.0.1:{port}/studybot"
    code, output = doctor(cache, STUDYBOT_DATABASE=dsn)
    [line] = [x for x in output.splitlines() if x.startswith("database:")]
    assert line.startswith(f"database: cannot connect to postgresql://studybot@127.0.0.1:{port}/")
    assert line.endswith("accepting TCP/IP connections?")  # libpq's two lines, as one
    assert "queue: unknown (the database is unreachable)" in output
    assert "schedules: unknown (the database is unreachable)" in output
    assert "hunter2-secret" not in output and code == 1


def test_doctor_says_which_shards_this_process_runs(cache: Path, tmp_path: Path) -> None:
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"
    database = str(tmp_path / "bot.sqlite3")
    _, output = doctor(cache, STUDYBOT_DATABASE=database, DISCORD_TOKEN=token,
                       DISCORD_SHARD_COUNT="6", DISCORD_SHARD_IDS="0-2,5")  # fmt: skip
    assert "shards: 6 in all; this process runs 0-2, 5 (4 of 6)" in output, output
    assert ("  shards 3-4 must each run in one other process with DISCORD_SHARD_COUNT=6 "
            "(not visible from here)") in output  # fmt: skip
    assert "DISCORD_SHARD_IDS = 0,1,2,5" in output
    assert "queue: none: SQLite grades in the bot's own process" in output
    _, output = doctor(cache, STUDYBOT_DATABASE=database, DISCORD_TOKEN=token,
                       DISCORD_SHARDED="true")  # fmt: skip
    assert "shards: as many as Discord recommends, all run by this process" in output
    _, output = doctor(cache, STUDYBOT_DATABASE=database, DISCORD_TOKEN=token)
    assert "shards: one gateway connection (DISCORD_SHARD_COUNT not set)" in output
    code, output = doctor(cache, STUDYBOT_DATABASE=database, DISCORD_TOKEN=token,
                          DISCORD_SHARD_COUNT="2", DISCORD_SHARD_IDS="2")  # fmt: skip
    assert code == 2 and "DISCORD_SHARD_IDS: shard 2 is not below DISCORD_SHARD_COUNT (2)" in output


def test_doctor_names_a_collation_the_bot_would_refuse(cache: Path, icu_english_dsn: str) -> None:
    code, output = doctor(cache, STUDYBOT_DATABASE=icu_english_dsn)
    assert "database collation ICU (en-US): studybot compares times" in output, output
    assert code == 1


@pytest.mark.parametrize("command", [["content", "load"], ["run"]])
def test_a_refused_collation_is_one_line_from_load_and_run(
    tmp_path: Path, icu_english_dsn: str, command: list[str]
) -> None:
    """`content load` and `studybot run` (the console) on a database refused for its
    collation: one line naming the ICU locale, exit 2, no traceback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STUDYBOT_", "DISCORD_",
                                                                       "SLACK_"))}  # fmt: skip
    env |= {"STUDYBOT_DATABASE": icu_english_dsn, "STUDYBOT_CONTENT_DIR": str(REPO / "content"),
            "STUDYBOT_CACHE_DIR": str(tmp_path)}  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "bot", *command], cwd=tmp_path, env=env,
                          input="", capture_output=True, text=True, timeout=PATIENCE)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "database error: database collation ICU (en-US)" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_settings_of_a_platform_without_its_token_are_ignored_and_a_bad_one_is_a_problem(
    cache: Path, tmp_path: Path
) -> None:
    database = str(tmp_path / "bot.sqlite3")
    _, output = doctor(cache, STUDYBOT_DATABASE=database, SLACK_HTTP_PORT="3001")
    assert "SLACK_HTTP_PORT = (set, ignored: SLACK_BOT_TOKEN is not set)" in output
    assert "slack: not configured (SLACK_BOT_TOKEN not set)\nproblems found" in output  # none
    _, output = doctor(cache, STUDYBOT_DATABASE=database, DISCORD_GUILD_IDS="abc")
    invalid = "and invalid: DISCORD_GUILD_IDS: 'abc' is not a comma-separated list of numeric ids"
    assert f"DISCORD_GUILD_IDS = (set, ignored: DISCORD_TOKEN is not set, {invalid})" in output
    assert "discord: off (DISCORD_TOKEN not set)\n  DISCORD_GUILD_IDS: " in output
