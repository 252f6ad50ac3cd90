"""Search over the bundled bank finds the right questions for the queries people type:
2-character Chinese words, mixed Chinese and English, English terms, a single character."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.content.loader import load_bank
from bot.store.database import open_database
from bot.store.db import SqliteDatabase
from bot.store.questions import QuestionStore
from tests.fakes import BANK


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[QuestionStore]:
    async with open_database(tmp_path / "bank.sqlite3") as db:
        await load_bank(SqliteDatabase(db), BANK)
        yield QuestionStore(SqliteDatabase(db))


async def ids(store: QuestionStore, query: str) -> list[str]:
    return [hit.question_id for hit in await store.search(query, limit=5)]


@pytest.mark.parametrize(
    ("query", "first", "also"),
    [
        (
            "通信 重叠",
            "communication-compute-overlap",
            {"ddp-gradient-bucketing", "tensor-parallel-communication-volume"},
        ),
        (
            "流水线并行",
            "pipeline-bubble-1f1b",
            {"pipeline-1f1b-schedule", "tensor-parallel-communication-volume"},
        ),
        (
            "张量并行",
            "nvswitch-topology",
            {"tensor-parallel-column-vs-row", "tensor-parallel-communication-volume"},
        ),
        ("GIL", "python-gil", {"gil-release-in-c-extensions", "free-threaded-python-pep703"}),
        ("GIL 多线程", "gil-release-in-c-extensions", {"python-gil", "cpp-threads-vs-processes"}),
        ("allreduce", "allreduce-communication-cost", {"hierarchical-allreduce"}),
        ("All-Reduce", "allreduce-communication-cost", {"hierarchical-allreduce"}),
        (
            "NCCL",
            "nccl-environment-variables",
            {"nccl-hang-debugging", "nccl-protocols-ll-ll128-simple"},
        ),
        ("KV Cache 量化", "kv-cache-quantization", {"int8-smoothquant-fp8"}),
        ("锁", "mutex-spinlock-futex", {"python-gil", "deadlock-conditions"}),
        ("旋转矩阵", "rotate-matrix", set()),
        ("contiguous", "tensor-view-vs-contiguous", set()),
    ],
)
async def test_queries_find_the_right_questions_best_first(
    store: QuestionStore, query: str, first: str, also: set[str]
) -> None:
    found = await ids(store, query)
    assert found[0] == first
    assert also <= set(found)


async def test_a_two_character_word_in_the_body_is_found(store: QuestionStore) -> None:
    found = await ids(store, "显存")
    assert "kv-cache-sizing" in found and "zero-stages-memory" in found
    assert "python-ipc" not in found


async def test_every_word_must_match(store: QuestionStore) -> None:
    assert await ids(store, "GIL 旋转矩阵") == []
    assert await ids(store, "量子计算") == []


async def test_snippets_show_the_matching_text(store: QuestionStore) -> None:
    hits = await store.search("引用计数")
    assert hits[0].question_id == "python-memory-management"
    assert "python-gil" in [h.question_id for h in hits]
    assert all("引用计数" in h.snippet for h in hits)


async def test_full_width_letters_and_digits_find_their_ascii_forms(store: QuestionStore) -> None:
    assert (await ids(store, "ＧＩＬ"))[0] == "python-gil"
    assert await ids(store, "ＧＩＬ 多线程") == await ids(store, "GIL 多线程")


async def test_snippets_keep_underscores_inside_words(store: QuestionStore) -> None:
    hits = await store.search("shared_memory")
    assert hits and any("shared_memory" in hit.snippet for hit in hits)
