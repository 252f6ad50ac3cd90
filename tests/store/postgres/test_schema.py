"""The PostgreSQL schema is SQLite's: the same tables, columns, types, keys and indexes.

Both are read from the databases themselves (sqlite_master and PRAGMAs; information_schema
and pg_catalog), so a SQLite migration without its PostgreSQL twin fails here.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import psycopg

from bot.store.database import SCHEMA_VERSION as SQLITE_VERSION
from bot.store.database import open_database
from bot.store.postgres.migrations import MIGRATIONS, SQLITE_VERSIONS

# Where the backends differ on purpose (bot/store/postgres/migrations.py says why): the
# search table is keyed by question id instead of SQLite's implicit rowid, and holds its
# tsvectors beside the tokens.
SEARCH_EXTRAS = {
    "question_search": {"question_id": "text", "document": "tsvector", "title_document": "tsvector"}
}
# PostgreSQL's alone: the rate budgets every bot process shares (on SQLite one process runs and
# keeps its budget in memory).
POSTGRES_ONLY = {"rate_budgets": {"name": ("text", True), "next_turn": ("double precision", True)}}
FTS5_SHADOWS = ("_data", "_idx", "_content", "_docsize", "_config")
TYPES = {"TEXT": {"text"}, "INTEGER": {"integer", "bigint"}, "REAL": {"double precision"}}

Columns = dict[str, tuple[str, bool]]  # name -> (type, not null)


async def _sqlite(tmp_path: Path) -> dict[str, Columns]:
    path = tmp_path / "bot.sqlite3"
    async with open_database(path):
        pass
    with sqlite3.connect(path) as db:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        tables = [n for n in names if not n.startswith("question_search_")]
        assert set(names) - set(tables) == {f"question_search{s}" for s in FTS5_SHADOWS}
        return {t: _sqlite_columns(db, t) for t in tables}


def _sqlite_columns(db: sqlite3.Connection, table: str) -> Columns:
    rows = db.execute(f"PRAGMA table_info({table})").fetchall()
    # A rowid alias (INTEGER PRIMARY KEY) is NOT NULL though table_info does not say so.
    return {r[1]: (r[2] or "TEXT", bool(r[3] or r[5])) for r in rows}


def _postgres(dsn: str) -> dict[str, Columns]:
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            """SELECT table_name, column_name, data_type, is_nullable = 'NO'
               FROM information_schema.columns WHERE table_schema = 'public'
               ORDER BY table_name, ordinal_position"""
        ).fetchall()
    schema: dict[str, Columns] = {}
    for table, column, data_type, not_null in rows:
        schema.setdefault(table, {})[column] = (data_type, not_null)
    return schema


async def test_every_sqlite_table_and_column_has_its_postgres_twin(
    tmp_path: Path, postgres_dsn: str
) -> None:
    sqlite_schema = await _sqlite(tmp_path)
    postgres_schema = _postgres(postgres_dsn)
    for table, columns in POSTGRES_ONLY.items():
        assert postgres_schema.pop(table) == columns
    assert sorted(postgres_schema) == sorted(sqlite_schema)
    for table, columns in sqlite_schema.items():
        extras = SEARCH_EXTRAS.get(table, {})
        twin = {k: v for k, v in postgres_schema[table].items() if k not in extras}
        assert list(twin) == list(columns), table  # same names, same order
        for name, (kind, not_null) in columns.items():
            assert twin[name][0] in TYPES[kind], (table, name, twin[name][0])
            if table != "question_search":  # FTS5 columns have no constraints
                assert twin[name][1] == not_null, (table, name, "NOT NULL differs")


async def test_every_key_index_and_check_has_its_postgres_twin(
    tmp_path: Path, postgres_dsn: str
) -> None:
    tables = await _sqlite(tmp_path)
    with sqlite3.connect(tmp_path / "bot.sqlite3") as db:
        sqlite_keys = {t: _sqlite_keys(db, t) for t in tables}
    with psycopg.connect(postgres_dsn) as conn:
        postgres_keys = {t: _postgres_keys(conn, t) for t in tables}
    postgres_keys["question_search"] -= SEARCH_KEYS
    assert postgres_keys == sqlite_keys


# The search table's own key and index (SQLite's FTS5 table has its rowid instead).
SEARCH_KEYS = {
    ("pk", ("question_id",)),
    ("fk", ("question_id",), "questions", ("id",), "CASCADE"),
    ("index", "question_search_document", ("document",)),
    ("index", "question_search_title", ("title_document",)),
}
Key = tuple[object, ...]


def _sqlite_keys(db: sqlite3.Connection, table: str) -> set[Key]:
    info = db.execute(f"PRAGMA table_info({table})").fetchall()
    keys: set[Key] = {("pk", tuple(r[1] for r in sorted(info, key=lambda r: r[5]) if r[5]))}
    for _, name, _, origin, _ in db.execute(f"PRAGMA index_list({table})").fetchall():
        columns = tuple(r[2] for r in db.execute(f"PRAGMA index_info({name})"))
        if origin != "pk":
            keys.add(("unique", columns) if origin == "u" else ("index", name, columns))
    for fk in db.execute(f"PRAGMA foreign_key_list({table})").fetchall():
        keys.add(("fk", (fk[3],), fk[2], (fk[4],), fk[6]))
    (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()
    keys.add(("checks", sql.upper().count("CHECK (")))
    return keys - {("pk", ())}


_PG_COLUMNS = """ARRAY(SELECT a.attname::text FROM unnest({keys}) WITH ORDINALITY AS k(n, o)
                       JOIN pg_attribute AS a ON a.attrelid = {rel} AND a.attnum = k.n
                       ORDER BY k.o)"""
_PG_CONSTRAINTS = f"""
    SELECT c.contype, {_PG_COLUMNS.format(keys="c.conkey", rel="c.conrelid")},
           c.confrelid::regclass::text, {_PG_COLUMNS.format(keys="c.confkey", rel="c.confrelid")},
           c.confdeltype
    FROM pg_constraint AS c WHERE c.conrelid = %s::regclass"""
_PG_INDEXES = f"""
    SELECT x.relname::text, {_PG_COLUMNS.format(keys="i.indkey::int2[]", rel="i.indrelid")}
    FROM pg_index AS i JOIN pg_class AS x ON x.oid = i.indexrelid
    WHERE i.indrelid = %s::regclass
      AND NOT EXISTS (SELECT 1 FROM pg_constraint AS c WHERE c.conindid = i.indexrelid)"""
_ON_DELETE = {"a": "NO ACTION", "c": "CASCADE"}


def _postgres_keys(conn: psycopg.Connection[tuple[Any, ...]], table: str) -> set[Key]:
    constraints = conn.execute(_PG_CONSTRAINTS, (table,)).fetchall()
    keys: set[Key] = {("checks", sum(row[0] == "c" for row in constraints))}
    for kind, columns, target, target_columns, on_delete in constraints:
        if kind == "f":
            keys.add(("fk", tuple(columns), target, tuple(target_columns), _ON_DELETE[on_delete]))
        elif kind in "pu":
            keys.add(({"p": "pk", "u": "unique"}[kind], tuple(columns)))
    for name, columns in conn.execute(_PG_INDEXES, (table,)):
        keys.add(("index", name, tuple(columns)))
    return keys


def test_each_postgres_step_names_the_sqlite_version_it_matches() -> None:
    assert len(SQLITE_VERSIONS) == len(MIGRATIONS)
    assert list(SQLITE_VERSIONS) == sorted(set(SQLITE_VERSIONS))
    assert SQLITE_VERSIONS[-1] == SQLITE_VERSION


def test_unique_keys_and_checks_hold_on_postgres(postgres_dsn: str) -> None:
    with psycopg.connect(postgres_dsn) as conn:
        constraints = {
            (r[0], r[1])
            for r in conn.execute(
                """SELECT conrelid::regclass::text, contype FROM pg_constraint
                   WHERE connamespace = 'public'::regnamespace"""
            )
        }
    # A few that carry meaning: the exactly-once ledgers and the point ledger's dedupe.
    assert {("daily_posts", "p"), ("summary_posts", "p"), ("activity", "u")} <= constraints
    assert {("activity", "c"), ("questions", "c"), ("submissions", "c")} <= constraints
    assert ("daily_posts", "f") in constraints and ("question_search", "f") in constraints
