"""Loading content into SQLite: idempotent, in place, user rows kept, broken files refused."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from bot.content.loader import load_bank, load_if_changed
from bot.errors import ContentError
from bot.store.questions import QuestionStore
from bot.types import User
from bot.store.db import SqliteDatabase
from tests.fakes import write_question

ALICE = User("test", "u1", "alice")


async def rowids(db: aiosqlite.Connection) -> dict[str, int]:
    async with db.execute("SELECT id, rowid FROM questions") as cursor:
        return {row[0]: row[1] async for row in cursor}


async def test_first_load_adds_everything_and_a_second_changes_nothing(
    db: aiosqlite.Connection, content_dir: Path
) -> None:
    first = await load_bank(SqliteDatabase(db), content_dir)
    assert (first.added, first.updated, first.unchanged, first.retired) == (4, 0, 0, 0)
    second = await load_bank(SqliteDatabase(db), content_dir)
    assert (second.added, second.updated, second.unchanged, second.retired) == (0, 0, 4, 0)


async def test_changed_content_updates_in_place_and_keeps_user_rows(
    db: aiosqlite.Connection, content_dir: Path
) -> None:
    await load_bank(SqliteDatabase(db), content_dir)
    store = QuestionStore(SqliteDatabase(db))
    await store.record_reveal(ALICE, "python-gil", "2026-01-01T00:00:00+00:00")
    before = await rowids(db)
    write_question(content_dir, "python-gil", "GIL是什么？", "新的解析：GIL 保护引用计数。",
                   topics=("python", "concurrency"))  # fmt: skip
    report = await load_bank(SqliteDatabase(db), content_dir)
    assert (report.updated, report.unchanged) == (1, 3)
    assert await rowids(db) == before
    question = await store.get("python-gil")
    assert question is not None and question.topics == ("concurrency", "python")
    assert [h.question_id for h in await store.search("引用计数")] == ["python-gil"]
    async with db.execute("SELECT count(*) FROM answer_reveals") as cursor:
        assert (await cursor.fetchone())[0] == 1  # type: ignore[index]


async def test_removed_question_is_retired_not_deleted(
    db: aiosqlite.Connection, content_dir: Path
) -> None:
    await load_bank(SqliteDatabase(db), content_dir)
    await QuestionStore(SqliteDatabase(db)).record_reveal(ALICE, "gpu-memory", "2026-01-01T00:00:00+00:00")
    (content_dir / "questions" / "gpu-memory.md").unlink()
    report = await load_bank(SqliteDatabase(db), content_dir)
    assert report.retired == 1
    store = QuestionStore(SqliteDatabase(db))
    assert await store.get("gpu-memory") is None
    assert await store.search("显存") == []
    async with db.execute("SELECT question_id FROM answer_reveals") as cursor:
        assert [row[0] async for row in cursor] == ["gpu-memory"]
    write_question(content_dir, "gpu-memory", "显存不够怎么办？", "回来了。")
    assert (await load_bank(SqliteDatabase(db), content_dir)).updated == 1
    assert await store.get("gpu-memory") is not None


async def test_a_broken_file_stops_the_load_and_keeps_the_last_good_bank(
    db: aiosqlite.Connection, content_dir: Path
) -> None:
    await load_bank(SqliteDatabase(db), content_dir)
    write_question(content_dir, "python-gil", "改过的标题", "改过的解析")
    (content_dir / "questions" / "broken.md").write_text("---\nid: broken\n", encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        await load_bank(SqliteDatabase(db), content_dir)
    assert "broken.md:1: front matter is not closed" in str(caught.value)
    question = await QuestionStore(SqliteDatabase(db)).get("python-gil")
    assert question is not None and question.title == "Python全局解释器锁（GIL）是什么？"


async def test_load_if_changed_skips_an_unchanged_directory(
    db: aiosqlite.Connection, content_dir: Path
) -> None:
    assert await load_if_changed(SqliteDatabase(db), content_dir) is not None
    assert await load_if_changed(SqliteDatabase(db), content_dir) is None
    write_question(content_dir, "new-one", "新题目", "新解析")
    report = await load_if_changed(SqliteDatabase(db), content_dir)
    assert report is not None and report.added == 1
