"""Backing up and restoring a SQLite deployment: `studybot db backup` and `db restore`.

Both use SQLite's online backup API (`sqlite3.Connection.backup`), never a file copy: a copy
of a live WAL database can miss the pages still in its `-wal` file or catch a write halfway.
The backup copies every page in one step, inside one read transaction, so it is a consistent
snapshot even while the bot writes (WAL readers do not block writers, nor writers them).
Everything here is plain synchronous code, run by the command line outside any event loop.

Both write to a temporary file beside the destination and move it into place only when it is
complete, so an interrupted run leaves no half-written database behind. A backup is a single
file (journal mode DELETE), checked with `PRAGMA quick_check` before it is kept.

A restore goes only into an empty database (absent, or a file with no tables): restoring over
a live one would lose whatever it holds since the backup, so that is the operator's decision,
said in the refusal. The file must be a studybot database (`schema_version`, not newer than
this studybot; an older one is migrated when the bot next opens it).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bot.errors import StoreError
from bot.store.database import SCHEMA_VERSION


class BackupRefused(StoreError):
    """A backup or restore that would lose data, or whose input is not a studybot database."""


@dataclass(frozen=True, slots=True)
class Copied:
    """What a backup or restore wrote: the schema version, bytes and tables."""

    version: int
    size: int
    tables: int


def backup(database: Path, target: Path, *, force: bool = False) -> Copied:
    """Copy the live `database` into `target`, consistently; an existing `target` only
    with `force` (it is replaced whole, once the new copy is complete)."""
    if not database.is_file():
        raise BackupRefused(f"there is no database at {database} (STUDYBOT_DATABASE)")
    if target.exists() and not force:
        raise BackupRefused(f"{target} exists; choose another file, or pass --force to "
                            "replace it")  # fmt: skip
    with _connected(database) as source:
        _check_studybot(source, database)
    _copy_into(database, target)
    return _described(target)


def restore(source: Path, database: Path) -> Copied:
    """Put the backup `source` at `database`, which must be absent or hold no tables."""
    if not source.is_file():
        raise BackupRefused(f"there is no backup at {source}")
    with _connected(source) as backup_db:
        _check_studybot(backup_db, source)
    if database.exists():
        _check_empty(database)
        for leftover in _sidecars(database):
            leftover.unlink(missing_ok=True)
    database.parent.mkdir(parents=True, exist_ok=True)
    _copy_into(source, database)
    return _described(database)


def _copy_into(source: Path, target: Path) -> None:
    """Copy `source` page by page, in one step, into a temporary file beside `target`, check
    it, and move it into place."""
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial",
                                    dir=target.parent)  # fmt: skip
    os.close(handle)
    partial = Path(name)
    try:
        with _connected(source) as src, _connected(partial) as dst:
            src.backup(dst)  # pages=-1: every page in one step, one read transaction
            dst.execute("PRAGMA journal_mode = DELETE")  # a backup is one file
            if (verdict := dst.execute("PRAGMA quick_check").fetchone()[0]) != "ok":
                raise BackupRefused(f"the copy of {source} failed its check: {verdict}")
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
        for leftover in _sidecars(partial):
            leftover.unlink(missing_ok=True)


def _check_studybot(db: sqlite3.Connection, path: Path) -> int:
    """The schema version of a studybot database; refuse anything else, or a newer one."""
    try:
        row = db.execute("SELECT max(version) FROM schema_version").fetchone()
    except sqlite3.DatabaseError as exc:  # no such table, or not a database at all
        raise BackupRefused(f"{path} is not a studybot database ({exc})") from exc
    version = int(row[0] or 0)
    if version == 0:
        raise BackupRefused(f"{path} is not a studybot database (no schema version)")
    if version > SCHEMA_VERSION:
        raise BackupRefused(f"{path} is at schema v{version}, newer than this studybot "
                            f"(v{SCHEMA_VERSION}); restore it with that studybot or a "
                            "newer one")  # fmt: skip
    return version


def _check_empty(database: Path) -> None:
    with _connected(database) as db:
        try:
            tables = _count_tables(db)
        except sqlite3.DatabaseError as exc:
            raise BackupRefused(f"{database} is not a SQLite database ({exc}); move it "
                                "aside, then restore again") from exc  # fmt: skip
    if tables:
        raise BackupRefused(
            f"{database} already holds a database ({tables} tables): restoring would replace "
            "it. Stop the bot, move that file aside (with its -wal and -shm files) or point "
            "STUDYBOT_DATABASE at a new path, then restore again"
        )


def _described(path: Path) -> Copied:
    with _connected(path) as db:
        return Copied(_check_studybot(db, path), path.stat().st_size, _count_tables(db))


def _count_tables(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0])


def _sidecars(database: Path) -> list[Path]:
    return [database.with_name(database.name + suffix) for suffix in ("-wal", "-shm", "-journal")]


@contextlib.contextmanager
def _connected(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain connection that waits for a writer's lock rather than failing, and closes."""
    db = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        yield db
    finally:
        db.close()
