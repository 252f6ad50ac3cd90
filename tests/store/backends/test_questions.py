"""The question bank on both engines: loading, retiring, lookups, picks, topics and search.

Each behaviour is asserted once and run on SQLite and PostgreSQL (`backend`); the bundled
bank is then loaded into both and every read compared, question by question. Search finds
the same set of questions on both; the order may differ among body-only matches (SQLite
ranks them by bm25, PostgreSQL leaves them in table order: `bot.store.postgres.search`).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bot.content.loader import load_bank, load_if_changed
from bot.store.database import open_database
from bot.store.db import Database, SqliteDatabase
from bot.store.postgres.database import open_postgres
from bot.store.postgres.db import PostgresDatabase
from bot.store.questions import QuestionStore
from bot.types import Difficulty, Kind, SearchHit, TopicCount, User
from tests.fakes import BANK, write_question

ALICE = User("test", "u1", "alice")
QUERIES = ["显存", "张量并行", "all-reduce", "kv cache", "GIL", "通信", "NCCL", "KV Cache",
           "流水线并行", "显存 带宽", "shared_memory", "ＧＩＬ", "引用计数"]  # fmt: skip


async def _count(db: Database, sql: str) -> int:
    row = await db.fetch_one(sql)
    return int(row[0]) if row else 0


async def test_a_load_serves_lookups_picks_topics_and_search(
    backend: Database, content_dir: Path
) -> None:
    report = await load_bank(backend, content_dir)
    assert (report.added, report.updated, report.unchanged, report.retired) == (4, 0, 0, 0)
    store = QuestionStore(backend)
    gil = await store.get("python-gil")
    assert gil is not None and gil.title_en == "What is the GIL?" and gil.topics == ("python",)
    assert gil.sources[0].title == "某公司 一面"
    power = await store.get("fast-power")
    assert power is not None and power.kind is Kind.CODING and len(power.hints) == 3
    assert await store.get("no-such") is None
    assert sorted(await store.ids()) == ["fast-power", "gpu-memory", "python-gil",
                                         "ring-allreduce"]  # fmt: skip
    assert await store.topics() == [TopicCount("distributed", 2), TopicCount("algorithms", 1),
                                    TopicCount("gpu", 1), TopicCount("python", 1)]  # fmt: skip
    assert await store.topic_exists("gpu") and not await store.topic_exists("nope")
    picked = await store.pick(random.Random(1), topic="distributed")
    assert picked is not None and picked.id in {"gpu-memory", "ring-allreduce"}
    assert await store.pick(random.Random(1), kind=Kind.CODING, topic="python") is None
    assert await store.ids_matching(kind=Kind.CODING) == ["fast-power"]
    total, page = await store.browse(difficulty=Difficulty.MEDIUM, limit=2, offset=1)
    assert total == 4 and [q.id for q in page] == ["gpu-memory", "python-gil"]
    assert [h.question_id for h in await store.search("显存")] == ["gpu-memory"]
    assert [h.question_id for h in await store.search("张量并行")] == ["gpu-memory"]
    assert [h.question_id for h in await store.search("all-reduce")] == ["ring-allreduce"]
    assert [h.question_id for h in await store.search("GIL 多线程")] == ["python-gil"]
    assert await store.search("量子计算") == [] and await store.search("？？") == []


async def test_changed_content_is_rewritten_and_the_search_follows(
    backend: Database, content_dir: Path
) -> None:
    await load_bank(backend, content_dir)
    store = QuestionStore(backend)
    await store.record_reveal(ALICE, "python-gil", "2026-01-01T00:00:00+00:00")
    write_question(content_dir, "python-gil", "GIL是什么？", "新的解析：GIL 保护引用计数。",
                   topics=("python", "concurrency"))  # fmt: skip
    report = await load_bank(backend, content_dir)
    assert (report.updated, report.unchanged) == (1, 3)
    question = await store.get("python-gil")
    assert question is not None and question.topics == ("concurrency", "python")
    assert [h.question_id for h in await store.search("引用计数")] == ["python-gil"]
    assert await store.search("互斥锁") == []  # the old explanation left the index
    assert await _count(backend, "SELECT count(*) FROM answer_reveals") == 1


async def test_a_removed_question_is_retired_then_restored(
    backend: Database, content_dir: Path
) -> None:
    await load_bank(backend, content_dir)
    store = QuestionStore(backend)
    await store.record_reveal(ALICE, "gpu-memory", "2026-01-01T00:00:00+00:00")
    (content_dir / "questions" / "gpu-memory.md").unlink()
    assert (await load_bank(backend, content_dir)).retired == 1
    assert await store.get("gpu-memory") is None
    assert await store.get("gpu-memory", retired=True) is not None  # old posts still find it
    assert await store.search("显存") == [] and await store.topic_exists("gpu") is False
    assert await _count(backend, "SELECT count(*) FROM answer_reveals") == 1
    write_question(content_dir, "gpu-memory", "显存不够怎么办？", "回来了。")
    assert (await load_bank(backend, content_dir)).updated == 1
    assert [h.question_id for h in await store.search("显存")] == ["gpu-memory"]


async def test_a_draft_is_stored_but_neither_served_nor_searched(
    backend: Database, content_dir: Path
) -> None:
    write_question(content_dir, "draft-one", "草稿：显存碎片", "还没写完。", status="draft")
    await load_bank(backend, content_dir)
    store = QuestionStore(backend)
    assert await store.get("draft-one") is None
    assert await store.get("draft-one", drafts=True) is not None
    assert [h.question_id for h in await store.search("显存")] == ["gpu-memory"]
    write_question(content_dir, "draft-one", "显存碎片", "写完了：显存碎片。")  # published
    await load_bank(backend, content_dir)
    assert {h.question_id for h in await store.search("显存")} == {"gpu-memory", "draft-one"}


async def test_load_if_changed_skips_an_unchanged_directory(
    backend: Database, content_dir: Path
) -> None:
    assert await load_if_changed(backend, content_dir) is not None
    assert await load_if_changed(backend, content_dir) is None
    write_question(content_dir, "new-one", "新题目", "新解析")
    report = await load_if_changed(backend, content_dir)
    assert report is not None and report.added == 1


async def test_two_loads_at_once_write_the_bank_once(backend: Database, content_dir: Path) -> None:
    reports = await asyncio.gather(*(load_if_changed(backend, content_dir) for _ in range(2)))
    assert sorted(r is None for r in reports) == [False, True]
    assert await _count(backend, "SELECT count(*) FROM questions") == 4


async def test_two_processes_loading_one_postgres_load_once(
    postgres_dsn: str, content_dir: Path
) -> None:
    """Two bots starting at once on one database: each its own pool, as separate
    processes would have; one writes the bank, the other finds it loaded."""
    async with (
        open_postgres(postgres_dsn, max_size=2) as one,
        open_postgres(postgres_dsn, max_size=2) as two,
    ):
        first, second = PostgresDatabase(one), PostgresDatabase(two)
        reports = await asyncio.gather(load_if_changed(first, content_dir),
                                       load_if_changed(second, content_dir))  # fmt: skip
        assert sorted(r is None for r in reports) == [False, True]
        assert [r.added for r in reports if r is not None] == [4]
        assert await _count(first, "SELECT count(*) FROM question_search") == 4


async def test_a_load_on_postgres_leaves_the_planner_fresh_statistics(
    postgres_dsn: str, content_dir: Path
) -> None:
    """Without them a lookup by id walks `questions_kind` instead of the primary key."""
    async with open_postgres(postgres_dsn, max_size=1) as pool:
        db = PostgresDatabase(pool)
        await load_bank(db, content_dir)
        analysed = await db.fetch_all(
            "SELECT relname FROM pg_stat_user_tables WHERE last_analyze IS NOT NULL"
        )
        assert {"questions", "question_topics", "question_sources", "question_search"} <= {
            str(row[0]) for row in analysed
        }


async def test_the_bundled_bank_reads_the_same_on_both_engines(
    tmp_path: Path, postgres_dsn: str
) -> None:
    async with (
        open_database(tmp_path / "bank.sqlite3") as lite,
        open_postgres(postgres_dsn, max_size=2) as pool,
    ):
        on_sqlite, on_postgres = SqliteDatabase(lite), PostgresDatabase(pool)
        for db in (on_sqlite, on_postgres):
            await load_bank(db, BANK)
        a, b = QuestionStore(on_sqlite), QuestionStore(on_postgres)
        ids = sorted(await a.ids())
        assert len(ids) > 100 and sorted(await b.ids()) == ids
        assert [await a.get(i) for i in ids] == [await b.get(i) for i in ids]
        assert await a.titles() == await b.titles()
        assert await a.topics() == await b.topics()
        await _same_picks_and_pages(a, b)
        for query in QUERIES:
            assert await _search_all(a, query) == await _search_all(b, query), query
        for query in QUERIES[:4]:  # the examples each find something
            assert await _search_all(a, query), query


async def _same_picks_and_pages(a: QuestionStore, b: QuestionStore) -> None:
    topics = [t.topic for t in await a.topics()]
    for seed, topic in enumerate([None, *topics]):
        for kind in (None, Kind.QA, Kind.CODING):
            x = await a.pick(random.Random(seed), kind=kind, topic=topic)
            y = await b.pick(random.Random(seed), kind=kind, topic=topic)
            assert (x and x.id) == (y and y.id), (seed, kind, topic)
            assert set(await a.ids_matching(kind=kind, topic=topic)) == set(
                await b.ids_matching(kind=kind, topic=topic)
            )
        first, second = await a.browse(topic=topic, limit=7), await b.browse(topic=topic, limit=7)
        assert first == second, topic


async def _search_all(store: QuestionStore, query: str) -> dict[str, SearchHit]:
    """Every match of `query`, by id: a limit past the bank's size, so the set is whole."""
    return {hit.question_id: hit for hit in await store.search(query, limit=1000)}
