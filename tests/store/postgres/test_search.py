"""Search on PostgreSQL finds what SQLite's FTS5 finds, from the same tokens.

Rows are inserted as the ingest does (`index_text` of title and body), queries are turned
into tsqueries and run by `bot.store.postgres.search.PostgresIndex`; the bundled bank,
copied from a SQLite database loaded by the real loader, must match the same questions on
both backends.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import psycopg
import pytest

from bot.content.loader import load_bank
from bot.search.tokens import index_text, match_expression
from bot.store.database import open_database
from bot.store.db import SqliteDatabase
from bot.store.postgres.database import open_postgres
from bot.store.postgres.db import PostgresDatabase
from bot.store.postgres.search import PostgresIndex, tsquery
from tests.fakes import BANK

QUESTIONS = {
    "python-gil": ("GIL 是什么？", "Python 的全局解释器锁 (Global Interpreter Lock)。"),
    "allreduce": ("All-Reduce 的通信量", "环形 all_reduce 每张卡发送 2(n-1)/n 的数据。"),
    "kv-cache": ("KV Cache 显存估算", "显存带宽决定解码速度；ＫＶ缓存随序列长度增长。"),
    "together": ("引用计数是什么？", "对象头里的引用计数。"),
    "apart": ("块表", "多个序列引用同一块，用计数器记录。"),
}


Conn = psycopg.AsyncConnection[tuple[object, ...]]


@pytest.fixture
async def conn(postgres_dsn: str) -> AsyncIterator[Conn]:
    async with await psycopg.AsyncConnection.connect(postgres_dsn, autocommit=True) as conn:
        for qid, (title, body) in QUESTIONS.items():
            await _insert(conn, qid, title, body)
        yield conn


@pytest.fixture
async def index(conn: Conn, postgres_dsn: str) -> AsyncIterator[PostgresIndex]:
    async with open_postgres(postgres_dsn, max_size=2) as pool:
        yield PostgresIndex(PostgresDatabase(pool))


async def _insert(conn: Conn, qid: str, title: str, body: str) -> None:
    await conn.execute(
        """INSERT INTO questions (id, title, kind, difficulty, answer, content_hash)
           VALUES (%s, %s, 'qa', 'easy', %s, '')""",
        (qid, title, body),
    )
    await conn.execute(
        "INSERT INTO question_search (question_id, title, body) VALUES (%s, %s, %s)",
        (qid, index_text(title), index_text(body)),
    )


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("显存", ["kv-cache"]),  # a two-character word, in the title
        ("带宽", ["kv-cache"]),  # ... and in the body only
        ("锁", ["python-gil"]),  # a single character
        ("GIL", ["python-gil"]),
        ("gil 解释器", ["python-gil"]),  # mixed, every term must match
        ("allreduce", ["allreduce"]),
        ("All-Reduce", ["allreduce"]),
        ("all_reduce", ["allreduce"]),
        ("kv cache", ["kv-cache"]),
        ("KV缓存", ["kv-cache"]),  # full-width letters were folded at indexing
        ("引用计数", ["together"]),  # a phrase: not "apart", which has its words apart
        ("GIL 显存", []),
    ],
)
async def test_the_same_tokens_find_chinese_and_english(
    index: PostgresIndex, query: str, found: list[str]
) -> None:
    assert await index.matching(query, 10) == found


async def test_title_matches_rank_first_then_body_matches_fill_the_limit(
    conn: Conn, index: PostgresIndex
) -> None:
    await _insert(conn, "bandwidth", "显存带宽", "HBM")
    await _insert(conn, "bandwidth-bound", "解码为何受限于显存带宽？", "HBM")
    assert await index.matching("带宽", 10) == ["bandwidth", "bandwidth-bound", "kv-cache"]
    assert await index.matching("带宽", 1) == ["bandwidth"]  # equal ranks: by id


@pytest.mark.parametrize(
    "hostile",
    ["'", "\\", "a & b", "a | !b", "x:*", "(((", "<->", "显存' | 'x", "-x +y", "  !!! ？？ "],
)
async def test_no_user_text_breaks_the_tsquery_syntax(index: PostgresIndex, hostile: str) -> None:
    await index.matching(hostile, 10)  # raises if the tsquery text is malformed


@pytest.mark.parametrize("column", ["document", "title_document"])
async def test_a_gin_index_serves_the_match(conn: Conn, column: str) -> None:
    await conn.execute("SET enable_seqscan = off")
    sql = f"EXPLAIN SELECT 1 FROM question_search WHERE {column} @@ to_tsquery('simple', %s)"
    plan = await (await conn.execute(sql.encode(), (tsquery("显存"),))).fetchall()
    assert f"Bitmap Index Scan on question_search_{column.split('_')[0]}" in " ".join(
        str(row[0]) for row in plan
    )


async def test_searches_are_never_prepared(conn: Conn, postgres_dsn: str) -> None:
    """Each search is planned for its own tsquery: a prepared statement may settle on one
    generic plan for all of them, a sequential scan that reads every body when a word is in
    none (`bot.store.postgres.search`)."""
    async with open_postgres(postgres_dsn, max_size=1) as pool:
        db = PostgresDatabase(pool)
        for _ in range(8):  # psycopg prepares a statement on its fifth run
            assert await PostgresIndex(db).matching("量子计算", 5) == []
        prepared = await db.fetch_all("SELECT statement FROM pg_prepared_statements")
        assert [row for row in prepared if "question_search" in str(row[0])] == []


QUERIES = ["通信", "流水线并行", "张量并行", "GIL 多线程", "All-Reduce", "NCCL", "KV Cache"]
QUERIES += ["锁", "旋转矩阵", "contiguous", "显存 带宽", "shared_memory", "ＧＩＬ", "引用计数"]


async def test_the_bundled_bank_matches_the_same_questions_on_both(
    tmp_path: Path, postgres_dsn: str
) -> None:
    path = tmp_path / "bank.sqlite3"
    async with open_database(path) as db:
        await load_bank(SqliteDatabase(db), BANK)
    with sqlite3.connect(path) as lite, psycopg.connect(postgres_dsn) as pg:
        _copy_questions(lite, pg)
        for query in QUERIES:
            expression = match_expression(query)
            on_sqlite = {r[0] for r in lite.execute(
                """SELECT q.id FROM question_search AS s JOIN questions AS q ON q.rowid = s.rowid
                   WHERE question_search MATCH ?""", (expression,))}  # fmt: skip
            on_postgres = set(_search_all(pg, query))
            assert on_postgres == on_sqlite, query
            assert on_sqlite, query  # each query finds something, so the check means something


def _copy_questions(lite: sqlite3.Connection, pg: psycopg.Connection[tuple[object, ...]]) -> None:
    cursor = lite.execute("SELECT * FROM questions")
    columns = [d[0] for d in cursor.description]
    marks = ", ".join(["%s"] * len(columns))
    insert = f"INSERT INTO questions ({', '.join(columns)}) VALUES ({marks})"
    with pg.cursor() as out:
        out.executemany(insert.encode(), cursor.fetchall())
        out.executemany(
            b"INSERT INTO question_search (question_id, title, body) VALUES (%s, %s, %s)",
            lite.execute("""SELECT q.id, s.title, s.body FROM question_search AS s
                            JOIN questions AS q ON q.rowid = s.rowid""").fetchall(),
        )  # fmt: skip


def _search_all(pg: psycopg.Connection[tuple[object, ...]], query: str) -> list[object]:
    sql = "SELECT question_id FROM question_search WHERE document @@ to_tsquery('simple', %s)"
    return [r[0] for r in pg.execute(sql, (tsquery(query),))]
