"""Items in the bilingual format as readers meet them: the reader's language first, a button
for the other; drafts never served; topics asked for by any of their names."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from adapters.console.adapter import ConsoleAdapter
from bot.core import Studybot
from bot.store.db import Database
from bot.store.questions import QuestionStore
from bot.types import ActionKind, Invocation, Locale, User
from tests.content.test_new_format import ENGLISH, edit
from tests.fakes import write_question

ALICE = User("test", "u1", "alice")


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    """The shared bank's GIL question, an item in the new format and a draft."""
    root = tmp_path / "content"
    write_question(root, "python-gil", "Python全局解释器锁（GIL）是什么？", "GIL是一把全局互斥锁。",
                   topics=("python",), title_en="What is the GIL?")  # fmt: skip
    write_question(root, "zero-stages", "ZeRO 三个阶段分别切分什么？", "ZeRO 解析",
                   topics=("distributed",), status="draft")  # fmt: skip
    item = root / "questions" / "kv-cache-size.md"
    item.write_text(edit("related: [python-gil]", "related: [python-gil, zero-stages]"))
    item.with_name("kv-cache-size.en.md").write_text(ENGLISH, encoding="utf-8")
    return root


def inv(command: str, locale: Locale = Locale.EN, **options: str) -> Invocation:
    return Invocation(command, options, user=ALICE, locale=locale)


async def console(core: Studybot, script: str, locale: Locale) -> str:
    stdout = io.StringIO()
    await ConsoleAdapter(core, io.StringIO(script + "/quit\n"), stdout, locale=locale).run()
    return stdout.getvalue()


async def test_an_english_reader_gets_english_and_a_button_for_chinese(core: Studybot) -> None:
    out = await console(core, "/answer kv-cache-size\n1\n", Locale.EN)
    first, switched = out.split("┌ Answer: ")[1:]
    assert first.startswith("How much memory does the KV cache take?")
    assert "│ Answer: each token stores K and V in every layer." in first
    assert "[1] 中文  → /answer kv-cache-size lang:zh" in first
    assert switched.startswith("KV Cache 占多少显存？") and "│ 答案：每个 token" in switched
    assert "[1] 中文" not in switched and "[1] English  → /answer kv-cache-size lang:en" in switched


async def test_a_chinese_reader_gets_chinese_and_a_button_for_english(core: Studybot) -> None:
    out = await console(core, "/answer kv-cache-size\n1\n", Locale.ZH)
    first, switched = out.split("┌ 解析：")[1:]
    assert first.startswith("KV Cache 占多少显存？") and "│ 答案：每个 token" in first
    assert "[1] English  → /answer kv-cache-size lang:en" in first
    assert switched.startswith("How much memory does the KV cache take?")
    assert "[1] 中文  → /answer kv-cache-size lang:zh" in switched


async def test_the_question_reply_switches_its_title_too(core: Studybot) -> None:
    reply = await core.handle(inv("question", Locale.ZH, id="python-gil"))
    assert reply.title == "Python全局解释器锁（GIL）是什么？"
    switch = next(a for a in reply.actions if a.kind is ActionKind.QUESTION_IN)
    assert switch.label == "English" and switch.as_command() == "/question python-gil lang:en"
    command, options = switch.invocation()
    english = await core.handle(inv(command, Locale.ZH, **options))
    assert english.title == "What is the GIL?"


async def test_related_items_are_buttons_and_a_line(core: Studybot) -> None:
    reply = await core.handle(inv("answer", id="kv-cache-size"))
    related = [(a.kind, a.value) for a in reply.actions if a.kind is ActionKind.SHOW_QUESTION]
    assert related == [(ActionKind.SHOW_QUESTION, "python-gil"),
                       (ActionKind.SHOW_QUESTION, "zero-stages")]  # fmt: skip
    assert any(f.name == "Related" and "`python-gil`" in f.value for f in reply.fields)
    assert reply.footer == "From: written for the bank"


async def test_a_draft_is_never_served(core: Studybot, loaded_database: Database) -> None:
    by_id = await core.handle(inv("answer", id="zero-stages"))
    assert by_id.body == "`zero-stages` is a draft, not published yet."
    for _ in range(20):  # the only other distributed item is the draft
        picked = await core.handle(inv("question", topic="distributed"))
        assert "ZeRO" not in (picked.title or "")
    assert "zero-stages" not in (await core.handle(inv("search", query="ZeRO 阶段"))).body
    assert "distributed" not in (await core.handle(inv("topics"))).body
    store = QuestionStore(loaded_database)
    assert "zero-stages" not in await store.ids()
    assert await store.pick(random.Random(1), topic="distributed") is None
    draft = await store.get("zero-stages", drafts=True)
    assert draft is not None and draft.status.value == "draft"


async def test_quick_checks_come_back_from_the_store(loaded_database: Database) -> None:
    item = await QuestionStore(loaded_database).get("kv-cache-size")
    assert item is not None and len(item.quiz) == 2
    assert item.quiz[1].correct_index() == 1
    assert item.quiz[0].options[2].why.en == "That assumes FP32."
    assert item.answer_en == ENGLISH.strip() and item.related == ("python-gil", "zero-stages")


async def test_topics_by_any_name_and_in_chinese(core: Studybot) -> None:
    for name in ("inference", "推理服务", "推理", "KV Cache"):
        reply = await core.handle(inv("question", topic=name))
        assert reply.title == "How much memory does the KV cache take?", name
    listed = await core.handle(inv("topics", Locale.ZH))
    assert "`inference` 推理服务：1 题" in listed.body
