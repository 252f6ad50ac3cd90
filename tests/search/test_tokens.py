"""Tokenising for FTS5: CJK bigrams and unigrams, folded Latin compounds, safe queries."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.content.loader import load_bank
from bot.search.tokens import index_tokens, match_expression, query_tokens
from bot.store.database import open_database
from bot.store.db import SqliteDatabase
from bot.store.questions import QuestionStore
from tests.fakes import write_question


def test_cjk_runs_become_bigrams_and_unigrams() -> None:
    assert index_tokens("显存带宽") == ["显存", "存带", "带宽", "显", "存", "带", "宽"]


def test_latin_words_fold_case_and_compounds_are_also_joined() -> None:
    assert index_tokens("NCCL的All-Reduce") == ["nccl", "的", "all", "reduce", "allreduce"]


def test_queries_use_bigrams_or_a_lone_character() -> None:
    assert query_tokens("GIL 多线程") == ["gil", "多线", "线程"]
    assert query_tokens("锁") == ["锁"]
    assert query_tokens("all-reduce AllReduce") == ["allreduce"]


def test_traditional_characters_fold_to_simplified_on_both_sides() -> None:
    assert query_tokens("顯存 多執行緒") == query_tokens("显存 多执行绪")
    assert index_tokens("記憶體頻寬") == index_tokens("记忆体频宽")


@pytest.mark.parametrize(
    "hostile",
    ['"', "NEAR(a b)", "a* OR b", "col:title", "(((", "AND", '显存" OR "x', "^start", "-x +y"],
)
def test_no_user_text_breaks_the_fts5_syntax(hostile: str) -> None:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body)")
    db.execute("INSERT INTO t VALUES (?)", (" ".join(index_tokens("显存 near and or x y")),))
    expression = match_expression(hostile)
    if expression is not None:
        db.execute("SELECT count(*) FROM t WHERE t MATCH ?", (expression,)).fetchone()


def test_nothing_searchable_gives_no_expression() -> None:
    assert match_expression("  !!! ？？ ") is None


def test_a_chinese_run_is_a_phrase_of_its_bigrams() -> None:
    assert match_expression("引用计数") == '"引用 用计 计数"'
    assert match_expression("GIL 多线程 显存") == '"gil" AND "多线 线程" AND "显存"'
    assert match_expression("锁 锁") == '"锁"'


async def test_a_phrase_finds_the_run_and_not_its_words_apart(tmp_path: Path) -> None:
    root = tmp_path / "content"
    write_question(root, "together", "引用计数是什么？", "对象头里的引用计数。")
    write_question(root, "apart", "块表", "多个序列引用同一块，用计数器记录。")
    async with open_database(tmp_path / "db.sqlite3") as db:
        database = SqliteDatabase(db)
        await load_bank(database, root)
        found = [hit.question_id for hit in await QuestionStore(database).search("引用计数")]
    assert found == ["together"]
