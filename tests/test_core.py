"""The core's commands end to end: Invocation in, Reply out, over a real SQLite file."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import aiosqlite
import pytest

from bot.app import App, open_app
from bot.content.loader import load_bank
from bot.core import Studybot
from bot.settings import Settings
from bot.types import ActionKind, ChannelRef, Invocation, Locale, Reply, Tone, User
from tests.fakes import FakeClock, write_question

ALICE = User("test", "u1", "alice")


def inv(command: str, locale: Locale = Locale.EN, **options: str) -> Invocation:
    return Invocation(command, options, user=ALICE, locale=locale)


async def test_question_by_id_hides_answer_and_offers_reveal(core: Studybot) -> None:
    reply = await core.handle(inv("question", id="python-gil"))
    assert reply.title == "What is the GIL?"
    assert "互斥锁" not in reply.body
    assert [(a.kind, a.value) for a in reply.actions] == [
        (ActionKind.REVEAL_ANSWER, "python-gil"),
        (ActionKind.QUESTION_IN, "zh:python-gil"),
    ]
    assert any(f.value == "`python-gil`" for f in reply.fields)
    assert reply.footer == "From: an interview report in Chinese: 某公司 first round"


async def test_coding_question_shows_statement_and_signature(core: Studybot) -> None:
    reply = await core.handle(inv("question", id="fast-power"))
    assert "数值的整数次方 statement" in reply.body
    assert "def my_pow(x: float, n: int) -> float" in reply.body


async def test_answer_returns_explanation_in_thread_and_records_reveal(
    core: Studybot, loaded_db: aiosqlite.Connection, clock: FakeClock
) -> None:
    reply = await core.handle(inv("answer", id="python-gil"))
    assert reply.body.startswith("GIL是一把全局互斥锁")
    assert reply.in_thread
    async with loaded_db.execute(
        "SELECT user_id, question_id, revealed_at FROM answer_reveals"
    ) as c:
        rows = [tuple(row) for row in await c.fetchall()]
    assert rows == [("u1", "python-gil", clock.now().isoformat())]


async def test_random_question_is_deterministic_under_a_seeded_rng(
    settings: Settings, loaded_db: aiosqlite.Connection
) -> None:
    async def titles(user: User) -> list[str | None]:
        async with open_app(settings, clock=FakeClock(), rng=random.Random(42),
                            grading=False) as app:  # fmt: skip
            ask = Invocation("question", {}, user=user, locale=Locale.EN)
            return [(await app.core.handle(ask)).title for _ in range(6)]

    # Each member's picks follow what they have seen: two members with the same history
    # (none) and the same seed are shown the same questions.
    first = await titles(ALICE)
    assert first == await titles(User("test", "u9", "carol"))
    assert len(set(first)) > 1


async def test_random_question_honours_topic_and_kind(core: Studybot) -> None:
    for _ in range(5):
        reply = await core.handle(inv("question", topic="distributed", kind="qa"))
        assert reply.title in {"AllReduce通信开销怎么计算？", "显存不够怎么办？"}
    coding = await core.handle(inv("question", kind="coding"))
    assert coding.title == "数值的整数次方"


async def test_topic_given_where_an_id_was_expected_picks_from_the_topic(core: Studybot) -> None:
    reply = await core.handle(inv("question", id="gpu"))
    assert reply.title == "显存不够怎么办？"


async def test_unknown_id_suggests_the_nearest(core: Studybot) -> None:
    reply = await core.handle(inv("question", id="python-gill"))
    assert reply.tone is Tone.USER_ERROR and reply.ephemeral
    assert "`python-gill`" in reply.body and "`python-gil`" in reply.body
    assert reply.actions[0].kind is ActionKind.SHOW_QUESTION
    assert reply.actions[0].value == "python-gil"


async def test_bad_kind_and_topic_get_helpful_replies(core: Studybot) -> None:
    kind = await core.handle(inv("question", kind="essay"))
    assert kind.tone is Tone.USER_ERROR and "`kind` must be one of: qa, coding" in kind.body
    topic = await core.handle(inv("question", topic="cooking"))
    assert topic.tone is Tone.USER_ERROR
    assert "`distributed`" in topic.body and "`cooking`" in topic.body


async def test_search_ranks_and_links_hits(core: Studybot) -> None:
    reply = await core.handle(inv("search", query="GIL 多线程"))
    assert reply.body.startswith("1. **Python全局解释器锁（GIL）是什么？** `python-gil`")
    assert reply.actions[0].value == "python-gil"


async def test_search_without_hits_and_without_words(core: Studybot) -> None:
    none = await core.handle(inv("search", query="量子计算"))
    assert "No question matches" in none.body
    empty = await core.handle(inv("search", query="!!!"))
    assert "No question matches" in empty.body


async def test_missing_required_option_shows_usage(core: Studybot) -> None:
    reply = await core.handle(inv("answer"))
    assert reply.tone is Tone.USER_ERROR
    assert "/answer <id>" in reply.body


async def test_topics_lists_counts(core: Studybot) -> None:
    reply = await core.handle(inv("topics"))
    assert reply.body.splitlines()[0] == "`distributed`: 2 question(s)"


async def test_chinese_locale(core: Studybot) -> None:
    reply = await core.handle(inv("help", Locale.ZH))
    assert reply.title == "studybot：AI Infra 面试练习"
    assert "搜索题目" in reply.body
    missing = await core.handle(inv("question", Locale.ZH, id="nope"))
    assert "没有 id 为 `nope` 的题目" in missing.body


async def test_handle_line_parses_and_reports_unknown_commands(core: Studybot) -> None:
    where = ChannelRef("test", "c1")
    reply = await core.handle_line("/search allreduce", user=ALICE, channel=where, locale=Locale.EN)
    assert reply.actions[0].value == "ring-allreduce"
    unknown = await core.handle_line("/frobnicate", user=ALICE, channel=where, locale=Locale.EN)
    assert unknown.tone is Tone.USER_ERROR and "/help" in unknown.body
    typo = await core.handle_line("/qustion 1", user=ALICE, channel=where, locale=Locale.EN)
    assert typo.body == "Unknown command `/qustion`. Did you mean `/question`?"
    zh = await core.handle(inv("serach", Locale.ZH))
    assert zh.body == "没有 `/serach` 这个命令。你是想用 `/search` 吗？"
    long = await core.handle_line("/" + "x" * 10_000, user=ALICE, channel=where, locale=Locale.EN)
    assert len(long.body) < 120  # a 10,000-character name is not echoed whole


async def test_a_failure_is_logged_with_a_reference_and_answered_with_an_apology(
    core: Studybot, loaded_db: aiosqlite.Connection, caplog: pytest.LogCaptureFixture
) -> None:
    await loaded_db.execute("DROP TABLE question_topics")  # the bot's own fault, not the user's
    with caplog.at_level(logging.ERROR):
        reply = await core.handle(inv("topics"))
    assert reply.tone is Tone.FAILURE and reply.ephemeral
    ref = reply.body.split("ref `")[1].split("`")[0]
    assert f"(ref {ref})" in caplog.text and "no such table" in caplog.text


async def test_an_overlong_search_is_refused_politely(core: Studybot) -> None:
    reply = await core.handle(inv("search", query="显存" * 150))
    assert reply.tone is Tone.USER_ERROR
    assert "200 characters" in reply.body


async def test_question_options_get_clear_answers(core: Studybot) -> None:
    where = ChannelRef("test", "c1")

    async def line(text: str) -> Reply:
        return await core.handle_line(text, user=ALICE, channel=where, locale=Locale.EN)

    empty = await line("/question topic:")
    assert empty.tone is Tone.USER_ERROR
    assert empty.body.startswith("`topic:` needs a value after the colon.")
    both = await line("/question python-gil topic:python")
    assert both.body.startswith("Give either a question id or filters")
    for _ in range(6):  # as the label reads: "explained" is qa, never the coding problem
        explained = await line("/question kind:explained")
        assert explained.tone is not Tone.USER_ERROR
        assert explained.title is not None and "数值的整数次方" not in explained.title
    assert "数值的整数次方" in str((await line("/question kind:coding")).title)


async def test_a_pasted_wall_of_text_is_not_echoed_back(core: Studybot) -> None:
    where = ChannelRef("test", "c1")
    for line in ("/question " + "x" * 10_000, "/answer " + "显" * 10_000,
                 "/question topic:" + "y" * 5_000, "/search a " + "z" * 300,
                 "/question " + "w" * 300 + ":v"):  # fmt: skip
        reply = await core.handle_line(line, user=ALICE, channel=where, locale=Locale.EN)
        assert reply.tone is Tone.USER_ERROR, line[:20]
        assert len(reply.body) < 300, (line[:20], reply.body[:100])


async def test_question_by_difficulty(app: App, content_dir: Path) -> None:
    write_question(content_dir, "hard-one", "难题", "答案。", difficulty="hard")
    await load_bank(app.db, content_dir)
    core, where = app.core, ChannelRef("test", "c1")

    async def line(text: str, locale: Locale = Locale.EN) -> Reply:
        return await core.handle_line(text, user=ALICE, channel=where, locale=locale)

    for _ in range(5):
        assert (await line("/question difficulty:hard")).title == "难题"
    assert (await line("/question difficulty:困难", Locale.ZH)).title == "难题"
    none = await line("/question difficulty:easy")
    assert none.tone is Tone.USER_ERROR and "difficulty:easy" in none.body
    both = await line("/question python-gil difficulty:hard")
    assert both.body.startswith("Give either a question id or filters")
