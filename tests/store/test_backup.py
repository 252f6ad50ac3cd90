"""`studybot db backup` and `db restore`, run as the operator runs them: real processes over a
real WAL database that a running bot holds open and another thread keeps writing to.

The writer commits its rows two at a time, so a backup that caught a transaction halfway
would hold an odd number of them; the restored copy is then opened through `open_app` and
must serve, keep its schedule and keep its scores.
"""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import open_app
from bot.settings import Settings
from bot.store.database import SCHEMA_VERSION
from bot.store.db import Database
from bot.store.schedules import ScheduleStore
from bot.types import Invocation, Locale, Tone
from tests.fakes import FakeAdapter, FakeClock
from tests.quiz.test_channel_quiz import ALICE, CHANNEL, POSTED, click, content_dir, posted

__all__ = ["content_dir"]  # the quiz bank, as a fixture of this module too

WRITER = "writer"  # the user id of the rows the writing thread adds


def studybot(folder: Path, database: Path | str, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("STUDYBOT_")}
    environment |= {"STUDYBOT_DATABASE": str(database), "LANG": "C.UTF-8",
                    "XDG_CACHE_HOME": str(folder / "cache")}  # fmt: skip
    return subprocess.run([sys.executable, "-m", "bot", "db", *args], cwd=folder,
                          env=environment, capture_output=True, text=True, timeout=120,
                          check=False)  # fmt: skip


class Writer(threading.Thread):
    """Commits pairs of submissions until stopped; `reached(n)` waits for n commits."""

    def __init__(self, database: Path) -> None:
        super().__init__(daemon=True)
        self.database, self.commits = database, 0
        self.stop, self._progress = threading.Event(), threading.Condition()

    def run(self) -> None:
        db = sqlite3.connect(self.database, timeout=30, isolation_level=None)
        try:
            while not self.stop.is_set():
                db.execute("BEGIN IMMEDIATE")
                for _ in range(2):
                    db.execute("INSERT INTO submissions (platform, user_id, user_name, code, "
                               "state, created_at) VALUES ('test', ?, 'w', 'x', 'graded', "
                               "'2026-03-02')", (WRITER,))  # fmt: skip
                db.execute("COMMIT")
                with self._progress:
                    self.commits += 1
                    self._progress.notify_all()
        finally:
            db.close()

    def reached(self, commits: int) -> int:
        with self._progress:
            assert self._progress.wait_for(lambda: self.commits >= commits, timeout=60)
            return self.commits


def written(path: Path) -> int:
    with sqlite3.connect(path) as db:
        query = "SELECT count(*) FROM submissions WHERE user_id = ?"
        return int(db.execute(query, (WRITER,)).fetchone()[0])


async def me(settings: Settings, clock: FakeClock) -> tuple[str, list[int], str]:
    """What the bot built on `settings` says: ALICE's /me, the channel's schedule, and
    whether /question is answered."""
    async with open_app(settings, clock=clock, rng=random.Random(7), grading=False) as app:
        mine = await app.core.handle(Invocation("me", {}, ALICE, CHANNEL, Locale.EN))
        asked = await app.core.handle(Invocation("question", {}, ALICE, CHANNEL, Locale.EN))
        schedule = await ScheduleStore(app.db).for_channel(CHANNEL)
    assert asked.tone is not Tone.FAILURE and asked.body
    return mine.body, [schedule.id] if schedule else [], asked.tone.name


async def test_a_backup_taken_while_rows_are_written_restores_a_serving_bot(
    loaded_database: Database, settings: Settings, clock: FakeClock, tmp_path: Path
) -> None:
    async with posted(loaded_database, settings, clock, FakeAdapter()) as app:
        (post,) = app.platforms.get("test").sent  # type: ignore[union-attr]
        clock.set(POSTED + timedelta(minutes=5))
        await click(app, post.reply, 0, ALICE)  # a score and a streak to keep
    before = await me(settings, clock)
    assert before[1] and "streak" in before[0].lower()
    writer = Writer(settings.database)
    writer.start()
    try:
        started = writer.reached(50)
        backup = tmp_path / "backup.sqlite3"
        done = studybot(tmp_path, settings.database, "backup", str(backup))
        assert done.returncode == 0, done.stderr
        ended = writer.reached(writer.commits + 50)  # still writing after the backup
    finally:
        writer.stop.set()
        writer.join()
    rows = written(backup)
    assert rows % 2 == 0, "a transaction was caught halfway"
    assert 2 * started <= rows <= 2 * ended < written(settings.database)
    assert not backup.with_name("backup.sqlite3-wal").exists()  # one file
    assert f"schema v{SCHEMA_VERSION}" in done.stdout
    fresh = tmp_path / "restored" / "studybot.sqlite3"
    restored = studybot(tmp_path, fresh, "restore", str(backup))
    assert restored.returncode == 0, restored.stderr
    assert f"restored into {fresh}" in restored.stdout
    moved = Settings.from_mapping({"STUDYBOT_DATABASE": str(fresh),
                                   "STUDYBOT_CONTENT_DIR": str(settings.content_dir)})  # fmt: skip
    assert await me(moved, clock) == before
    assert written(fresh) == rows


def studybot_db(tmp_path: Path) -> Path:
    """A small studybot database (migrated, no rows), as a backup of one."""
    path = tmp_path / "small.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
    return path


def test_an_existing_backup_file_is_replaced_only_with_force(tmp_path: Path) -> None:
    source, target = studybot_db(tmp_path), tmp_path / "kept.sqlite3"
    target.write_bytes(b"yesterday's backup")
    refused = studybot(tmp_path, source, "backup", str(target))
    assert refused.returncode == 1
    assert "exists; choose another file, or pass --force" in refused.stderr
    assert target.read_bytes() == b"yesterday's backup"
    forced = studybot(tmp_path, source, "backup", "--force", str(target))
    assert forced.returncode == 0, forced.stderr
    assert written_version(target) == SCHEMA_VERSION
    missing = studybot(tmp_path, tmp_path / "none.sqlite3", "backup", str(tmp_path / "b"))
    assert missing.returncode == 1 and "there is no database at" in missing.stderr


def written_version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT max(version) FROM schema_version").fetchone()[0])


def test_a_restore_never_overwrites_a_database_in_use(tmp_path: Path) -> None:
    backup, live = studybot_db(tmp_path), tmp_path / "live.sqlite3"
    with sqlite3.connect(live) as db:
        db.execute("CREATE TABLE questions (id TEXT)")
    stamp = live.read_bytes()
    refused = studybot(tmp_path, live, "restore", str(backup))
    assert refused.returncode == 1
    assert "already holds a database (1 tables)" in refused.stderr
    assert "move that file aside" in refused.stderr
    assert live.read_bytes() == stamp
    empty = tmp_path / "empty.sqlite3"
    sqlite3.connect(empty).close()  # a file with no tables is empty
    accepted = studybot(tmp_path, empty, "restore", str(backup))
    assert accepted.returncode == 0, accepted.stderr
    assert written_version(empty) == SCHEMA_VERSION


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"not a database at all", "is not a studybot database"),
        ("CREATE TABLE notes (body TEXT)", "is not a studybot database"),
        (f"CREATE TABLE schema_version (version INTEGER); "
         f"INSERT INTO schema_version VALUES ({SCHEMA_VERSION + 1})",
         f"newer than this studybot (v{SCHEMA_VERSION})"),
    ],
)  # fmt: skip
def test_only_a_studybot_database_no_newer_than_this_one_is_restored(
    tmp_path: Path, content: bytes | str, said: str
) -> None:
    backup = tmp_path / "other.sqlite3"
    if isinstance(content, bytes):
        backup.write_bytes(content)
    else:
        with sqlite3.connect(backup) as db:
            db.executescript(content)
    target = tmp_path / "new.sqlite3"
    refused = studybot(tmp_path, target, "restore", str(backup))
    assert refused.returncode == 1
    assert said in refused.stderr
    assert not target.exists()
    assert not list(tmp_path.glob("*.partial"))  # nothing half-written left behind


def test_on_postgresql_both_commands_name_the_tools_and_never_the_password(
    tmp_path: Path,
) -> None:
    dsn = "postgresql://study:hunter2@db.example:5433/studybot"
    for command, tool in (("backup", "pg_dump -Fc"), ("restore", "pg_restore")):
        done = studybot(tmp_path, dsn, command, str(tmp_path / "dump"))
        assert done.returncode == 2
        assert tool in done.stderr
        assert "postgresql://study@db.example:5433/studybot" in done.stderr
        assert "hunter2" not in done.stderr + done.stdout
