"""How often a question was asked, through the bot as `open_app` builds it: the card's
"asked in N reports" line in both languages (on `/question` and the daily post), and
`/questions sort:asked`, most asked first, whose page buttons keep the order."""

from __future__ import annotations

from pathlib import Path

from bot.app import App
from bot.commands.browse import PAGE_SIZE
from bot.content.loader import load_bank
from bot.types import Field, Invocation, Locale, Reply, Tone, User
from tests.asked import write_asked_bank
from tests.commands.test_browse import ALICE, WHERE, ids, line
from tests.fakes import FakeAdapter

KV_ZH = "被 3 篇面经问到 · 字节跳动（一面、二面）、阿里（二面）"


async def _bank(app: App, content_dir: Path) -> None:
    write_asked_bank(content_dir)
    await load_bank(app.db, content_dir)


def _asked(reply: Reply) -> list[Field]:
    return [f for f in reply.fields if f.name in ("Frequency", "考频")]


async def test_the_card_says_how_many_reports_asked_and_where(app: App, content_dir: Path) -> None:
    await _bank(app, content_dir)
    english = await line(app, "/question kv-cache-size")
    assert _asked(english) == [Field("Frequency", "Asked in 3 reports · ByteDance (first round, "
                                     "second round), Alibaba (second round)", False)]  # fmt: skip
    chinese = await line(app, "/question kv-cache-size", Locale.ZH)
    assert _asked(chinese) == [Field("考频", KV_ZH, False)]


async def test_the_companies_are_a_bounded_list(app: App, content_dir: Path) -> None:
    await _bank(app, content_dir)
    (english,) = _asked(await line(app, "/question many-companies"))
    assert english.value == "Asked in 6 reports · Xiaomi, Kuaishou, Baidu +2 more"
    (chinese,) = _asked(await line(app, "/question many-companies", Locale.ZH))
    assert chinese.value == "被 6 篇面经问到 · 小米、快手、百度 等另 2 家"
    (one,) = _asked(await line(app, "/question python-gil"))
    assert one.value == "Asked in 1 report"  # its report names no company


async def test_an_item_no_report_asked_has_no_asked_line(app: App, content_dir: Path) -> None:
    await _bank(app, content_dir)
    for locale in Locale:
        reply = await line(app, "/question written-here", locale)
        assert reply.tone is Tone.INFO and reply.title and _asked(reply) == []


async def test_the_daily_post_carries_the_asked_line(
    app: App, content_dir: Path, adapter: FakeAdapter
) -> None:
    await _bank(app, content_dir)
    admin = User("test", "a1", "admin", is_admin=True)
    for text in ("/schedule set 09:00 UTC topic:inference", "/daily now"):
        done = await app.core.handle_line(text, user=admin, channel=WHERE, locale=Locale.ZH)
        assert done.tone is Tone.INFO, done.body
    (post,) = [s.reply for s in adapter.sent if s.reply.title and "KV Cache" in s.reply.title]
    assert [f.value for f in _asked(post)] == [KV_ZH]


async def test_most_asked_first_and_the_pages_keep_the_order(app: App, content_dir: Path) -> None:
    await _bank(app, content_dir)
    reply = await line(app, "/questions sort:asked")
    assert reply.title == "Questions: most asked first"
    rows = reply.body.splitlines()
    assert rows[:2] == [
        "`many-companies` 张量并行怎么切？ · medium · asked ×6",
        "`kv-cache-size` How large is the KV cache? · medium · asked ×3",
    ]
    seen = ids(reply)
    while nexts := [a for a in reply.actions if a.label.startswith("Next")]:
        command, options = nexts[0].invocation()
        assert options["sort"] == "asked", options
        reply = await app.core.handle(Invocation(command, options, ALICE, WHERE, Locale.EN))
        seen += ids(reply)
    assert len(seen) == 19 and len(seen) > PAGE_SIZE
    assert seen[2:5] == ["often-03", "often-07", "often-11"]  # 3 reports each, then by id
    assert seen[-4:] == ["often-00", "often-04", "often-08", "written-here"]  # none: last
    back = [a for a in reply.actions if a.label.startswith("◀")]
    assert back[0].as_command() == "/questions sort:asked page:1"


async def test_the_sort_has_chinese_names_and_a_clear_reply_when_wrong(
    app: App, content_dir: Path
) -> None:
    await _bank(app, content_dir)
    chinese = await line(app, "/questions sort:问得最多 topic:gpu", Locale.ZH)
    assert chinese.title == "题目列表：gpu（GPU 架构与 CUDA） · 按考频"
    assert ids(chinese)[:3] == ["often-03", "often-07", "often-11"]
    assert chinese.body.splitlines()[0].endswith(" · 简单 · 考频 3")
    wrong = await line(app, "/questions sort:newest")
    assert wrong.tone is Tone.USER_ERROR and "level, asked" in wrong.body, wrong.body
    level = await line(app, "/questions")
    assert ids(level)[:3] == ["often-01", "often-02", "often-03"]  # the default: easiest first


async def test_search_hits_say_how_often_asked(app: App, content_dir: Path) -> None:
    await _bank(app, content_dir)
    english = await line(app, "/search many-companies")
    assert english.body.splitlines()[0] == "1. **张量并行怎么切？** `many-companies` · asked ×6"
    chinese = await line(app, "/search 自己写的题", Locale.ZH)
    assert chinese.body.splitlines()[0] == "1. **自己写的题** `written-here`"  # no report
    kv = await line(app, "/search kv-cache-size", Locale.ZH)
    assert kv.body.splitlines()[0].endswith("`kv-cache-size` · 考频 3")
