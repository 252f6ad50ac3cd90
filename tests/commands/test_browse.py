"""`/questions`: the bank a page at a time, filtered, with stateless page buttons."""

from __future__ import annotations

import io
from pathlib import Path

from adapters.console.adapter import ConsoleAdapter
from bot.app import App
from bot.commands.browse import PAGE_SIZE
from bot.content.loader import load_bank
from bot.types import Action, ActionKind, ChannelRef, Invocation, Locale, Reply, Tone, User
from tests.fakes import write_question

ALICE = User("test", "u1", "alice")
WHERE = ChannelRef("test", "c1")


async def bank(app: App, content_dir: Path, count: int = 23) -> None:
    """`count` more gpu questions beside the shared bank's: easy ones first, then hard."""
    for i in range(count):
        level = "easy" if i < 5 else "hard"
        write_question(content_dir, f"gpu-{i:02d}", f"GPU 题 {i:02d}", "解析。", topics=("gpu",),
                       difficulty=level, title_en=f"GPU question {i:02d}")  # fmt: skip
    await load_bank(app.db, content_dir)


async def line(app: App, text: str, locale: Locale = Locale.EN) -> Reply:
    return await app.core.handle_line(text, user=ALICE, channel=WHERE, locale=locale)


def ids(reply: Reply) -> list[str]:
    return [row.split("`")[1] for row in reply.body.splitlines()]


async def test_pages_walk_the_whole_filtered_list_once(app: App, content_dir: Path) -> None:
    await bank(app, content_dir)
    seen: list[str] = []
    reply = await line(app, "/questions topic:gpu")
    while True:
        seen += ids(reply)
        nexts = [a for a in reply.actions if a.label.startswith("Next")]
        if not nexts:
            break
        command, options = nexts[0].invocation()
        assert command == "questions" and options["topic"] == "gpu"
        reply = await app.core.handle(Invocation(command, options, ALICE, WHERE, Locale.EN))
    # 23 written + the shared bank's gpu-memory: every one once, easiest first
    assert len(seen) == len(set(seen)) == 24
    assert seen[:5] == [f"gpu-{i:02d}" for i in range(5)]
    assert reply.footer is not None and reply.footer.startswith("Page 3 of 3: 21–24 of 24")


async def test_filters_and_the_page_buttons_carry_them(app: App, content_dir: Path) -> None:
    await bank(app, content_dir)
    first = await line(app, "/questions 显卡 difficulty:困难", Locale.ZH)
    assert first.title == "题目列表：gpu（GPU 架构与 CUDA） · 困难"
    assert all("· 困难" in row for row in first.body.splitlines())
    assert len(ids(first)) == PAGE_SIZE and first.footer is not None
    assert first.footer.startswith("第 1/2 页：第 1–10 题，共 18 题。")
    (turn,) = first.actions
    assert turn.kind is ActionKind.BROWSE and turn.label == "下一页 ▶"
    assert turn.invocation() == ("questions", {"topic": "gpu", "difficulty": "hard",
                                               "page": "2"})  # fmt: skip
    assert turn.as_command() == "/questions topic:gpu difficulty:hard page:2"


async def test_bad_pages_and_filters_get_clear_replies(app: App, content_dir: Path) -> None:
    await bank(app, content_dir, count=3)
    for text, says in [
        ("/questions page:9", "There is no page 9: this list has 1 page(s); the last is `page:1`."),
        ("/questions page:0", "`page:0` is not a page number"),
        ("/questions page:-1", "`page:-1` is not a page number"),
        ("/questions page:" + "9" * 50, "There is no page 99999999…: this list has 1"),
        ("/questions topic:nothing", "There is no topic `nothing`"),
        ("/questions topic:gpu kind:coding", "No question fits: topic:gpu, kind:coding."),
        ("/questions difficulty:extreme", "difficulty"),
    ]:
        reply = await line(app, text)
        assert reply.tone is Tone.USER_ERROR and says in reply.body, (text, reply.body)
        assert len(reply.body) < 400


async def test_the_console_turns_pages_by_number(app: App, content_dir: Path) -> None:
    await bank(app, content_dir)
    stdout = io.StringIO()
    script = "/questions topic:gpu\n1\n2\n/quit\n"  # next, then previous (button 1 is ◀ now)
    await ConsoleAdapter(app.core, io.StringIO(script), stdout, locale=Locale.EN).run()
    pages = stdout.getvalue().split("┌ Questions: gpu")[1:]
    assert [p.split("│ Page ")[1][:9] for p in pages] == ["1 of 3: 1", "2 of 3: 1", "3 of 3: 2"]


def test_a_browse_button_survives_values_it_cannot_parse() -> None:
    broken = Action(ActionKind.BROWSE, "", "topic=gpu;;page;=3;page=2")
    assert broken.invocation() == ("questions", {"topic": "gpu", "page": "2"})
