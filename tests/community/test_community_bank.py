"""The community bank through the app that ships (open_app), on both engines: a member's
report becomes drafts of their server; a moderator approves one; it is served by /question,
/questions, /search and autocomplete in that server and nowhere else; known questions are
linked, not drafted again; a content load keeps the server's items; /forget me keeps what a
member shared but not their name; non-moderators and other servers' moderators are refused."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from bot.app import App
from bot.content.loader import load_bank
from bot.types import Action, ActionKind, ChannelRef, Invocation, Locale, Reply, Tone, User
from tests.fakes import FakeAdapter, FakeClock, write_question

REPORTS = Path(__file__).resolve().parents[1] / "content" / "reports"
NIO = REPORTS / "000_7025d64c92ab19c8.txt"  # four questions the test bank does not have
MIXED = REPORTS / "002_65862a52e5c59db9.txt"  # repeats python-gil and fast-power, and more
HERE = ChannelRef("test", "c1", "guild-a")
THERE = ChannelRef("test", "c9", "guild-b")
ALICE = User("test", "u1", "alice")
MOD = User("test", "m1", "mod", is_moderator=True)
OTHER_MOD = User("test", "m2", "elsewhere", is_moderator=True)
TEXTS = {path: path.read_text("utf-8") for path in (NIO, MIXED)}


async def line(app: App, text: str, who: User = ALICE, where: ChannelRef = HERE,
               locale: Locale = Locale.EN) -> Reply:  # fmt: skip
    return await app.core.handle_line(text, user=who, channel=where, locale=locale)


async def share(app: App, report: Path | str, who: User = ALICE,
                where: ChannelRef = HERE) -> Reply:  # fmt: skip
    text = TEXTS[report] if isinstance(report, Path) else report
    return await app.core.handle(Invocation("import", {"text": text}, who, where, Locale.EN))


async def click(app: App, action: Action, who: User = MOD, where: ChannelRef = HERE) -> Reply:
    command, options = action.invocation()
    return await app.core.handle(Invocation(command, options, who, where, Locale.EN))


def drafted(reply: Reply) -> list[str]:
    return [row.split("`")[1] for row in reply.body.splitlines() if row.startswith("- `")]


def linked(reply: Reply) -> list[str]:
    rows = [row for row in reply.body.splitlines() if "linked to:" in row]
    return [part for i, part in enumerate(rows[0].split("`")) if i % 2] if rows else []


def button(reply: Reply, kind: ActionKind) -> Action:
    return next(a for a in reply.actions if a.kind is kind)


async def approved(app: App) -> str:
    """Share the NIO report and approve the GPU question; its id."""
    ids = drafted(await share(app, NIO))
    gpu = next(i for i in ids if "gpu" in i)
    reply = await line(app, f"/drafts approve {gpu}", MOD)
    assert reply.tone is Tone.INFO, reply.body
    return gpu


async def test_a_report_becomes_drafts_that_are_served_nowhere(app: App) -> None:
    reply = await share(app, NIO)
    ids = drafted(reply)
    assert len(ids) == 4 and all(i.startswith("s.") for i in ids), reply.body
    assert "Moderators review drafts with `/drafts`." in reply.body and reply.ephemeral
    for qid in ids:
        shown = await line(app, f"/question {qid}")
        assert shown.tone is Tone.USER_ERROR and "draft" in shown.body
    listed = await line(app, "/questions")
    assert not any(i in listed.body for i in ids)
    assert not (await line(app, "/search GPU和CPU的区别")).actions


async def test_an_approved_item_is_served_in_its_server_only(app: App) -> None:
    gpu = await approved(app)
    shown = await line(app, f"/question {gpu}")
    assert shown.tone is Tone.INFO and "GPU和CPU的区别" in (shown.title or ""), shown.body
    assert gpu in (await line(app, "/questions topic:gpu")).body
    bob = User("test", "u2", "bob")  # has seen nothing: his two picks are both gpu items
    picks = {(await line(app, "/question topic:gpu", bob)).fields[0].value for _ in range(2)}
    assert picks == {f"`{gpu}`", "`gpu-memory`"}
    assert gpu in [a.value for a in (await line(app, "/search GPU和CPU的区别")).actions]
    choices = await app.core.complete("question", "id", "s.", Locale.EN, HERE.server)
    assert gpu in [c.value for c in choices]
    # another server, the shared bank alone
    elsewhere = await line(app, f"/question {gpu}", where=THERE)
    assert elsewhere.tone is Tone.USER_ERROR and "no question" in elsewhere.body
    assert gpu not in (await line(app, "/questions topic:gpu", where=THERE)).body
    for _ in range(3):
        assert gpu not in str((await line(app, "/question topic:gpu", where=THERE)).fields)
    searched = await line(app, "/search GPU和CPU的区别", where=THERE)
    assert gpu not in [a.value for a in searched.actions]
    assert not await app.core.complete("question", "id", "s.", Locale.EN, THERE.server)
    assert not await app.core.complete("question", "id", "s.", Locale.EN)  # no server: the bank


async def test_known_questions_are_linked_once_per_report(app: App) -> None:
    first = await share(app, NIO)
    again = await share(app, NIO)
    assert drafted(again) == [] and sorted(linked(again)) == sorted(drafted(first))
    mixed = await share(app, MIXED)
    assert {"python-gil", "fast-power"} <= set(linked(mixed)), mixed.body
    await share(app, MIXED, who=MOD)  # the same report from someone else counts once
    asks = await app.db.fetch_all(
        "SELECT server, title FROM question_asks WHERE question_id = ?", ("python-gil",)
    )
    assert [tuple(row) for row in asks] == [(HERE.server, "AI Infra 综合面经题库 (5)")]
    drafts = await app.db.fetch_all("SELECT count(*) FROM server_items")
    assert int(drafts[0][0]) == 4 + len(drafted(mixed))  # nothing drafted twice


async def test_the_other_server_drafts_its_own(app: App) -> None:
    ours = drafted(await share(app, NIO))
    theirs = drafted(await share(app, NIO, where=THERE))
    assert len(theirs) == 4 and not set(ours) & set(theirs)  # ids are global


async def test_moderators_page_through_drafts_with_buttons(app: App) -> None:
    await share(app, NIO)
    refused = await line(app, "/drafts")
    assert refused.tone is Tone.USER_ERROR and "moderators" in refused.body
    first = await line(app, "/drafts", MOD)
    assert (first.title or "").startswith("Draft 1/4: ") and first.ephemeral
    kinds = {ActionKind.DRAFT_APPROVE, ActionKind.DRAFT_REJECT, ActionKind.DRAFT_EDIT,
             ActionKind.DRAFT_PAGE}  # fmt: skip
    assert {a.kind for a in first.actions} == kinds
    assert "What the report said:" in first.body and "From" in str(first.fields)
    second = await click(app, button(first, ActionKind.DRAFT_PAGE))
    assert (second.title or "").startswith("Draft 2/4: ")
    # a member clicking a moderator's button, a moderator of another server: refused
    approve = button(second, ActionKind.DRAFT_APPROVE)
    assert (await click(app, approve, ALICE)).tone is Tone.USER_ERROR
    assert "No draft" in (await click(app, approve, OTHER_MOD, THERE)).body
    done = await click(app, approve)
    assert done.body.startswith("Approved") and (await click(app, approve)).tone is Tone.USER_ERROR
    rejected = await click(app, button(await line(app, "/drafts", MOD), ActionKind.DRAFT_REJECT))
    assert rejected.body.startswith("Rejected")
    left = await line(app, "/drafts", MOD)
    assert (left.title or "").startswith("Draft 1/2: ")


async def test_an_edit_is_checked_and_shown(app: App) -> None:
    qid = drafted(await share(app, NIO))[0]
    form = await click(app, Action(ActionKind.DRAFT_EDIT, "Edit", qid))
    assert f"/drafts edit id:{qid} title:" in form.body
    values = {f.name: f.value for f in form.fields}  # what a platform's form is filled with
    assert set(values) == {"title", "title_en", "topics", "difficulty", "kind"}
    assert values["difficulty"] == "medium" and values["title"].startswith("C++")
    bad = await line(app, f"/drafts edit {qid} topics:cooking", MOD)
    assert bad.tone is Tone.USER_ERROR and "`gpu`" in bad.body
    assert (await line(app, f"/drafts edit {qid} difficulty:extreme", MOD)).tone is Tone.USER_ERROR
    assert "empty" in (await line(app, f'/drafts edit {qid} title:" "', MOD)).body
    edited = await line(app, f'/drafts edit {qid} title:"GPU 与 CPU" title_en:"GPU versus CPU" '
                             "topics:gpu,显存 difficulty:hard", MOD)  # fmt: skip
    assert edited.title == f"Edited `{qid}`." and "GPU versus CPU" in edited.body
    assert "gpu, memory" in str(edited.fields) and "hard" in str(edited.fields)
    await line(app, f"/drafts approve {qid}", MOD)
    assert (await line(app, f"/question {qid}")).title == "GPU versus CPU"


async def test_a_draft_without_a_known_topic_is_approved_once_it_has_one(app: App) -> None:
    (qid,) = drafted(await share(app, "某司 一面\nQ: 你最喜欢哪本书？\n随便聊聊。\n"))
    refused = await line(app, f"/drafts approve {qid}", MOD)
    assert refused.tone is Tone.USER_ERROR and "uncategorized" in refused.body
    await line(app, f"/drafts edit {qid} topics:os", MOD)
    assert (await line(app, f"/drafts approve {qid}", MOD)).body.startswith("Approved")


async def test_a_content_load_keeps_the_servers_items(app: App, content_dir: Path) -> None:
    gpu = await approved(app)
    slug = gpu.removeprefix("s.")  # a bank item may take the same slug later
    write_question(content_dir, slug, "GPU 和 CPU 有何不同？", "架构不同。", topics=("gpu",))
    report = await load_bank(app.db, content_dir)
    assert report.added == 1 and report.retired == 0
    assert (await line(app, f"/question {gpu}")).tone is Tone.INFO
    assert (await line(app, f"/question {slug}", where=THERE)).tone is Tone.INFO
    drafts = await line(app, "/drafts", MOD)
    assert (drafts.title or "").startswith("Draft 1/3")  # drafts untouched too


async def test_forget_me_keeps_the_items_without_the_name(app: App) -> None:
    await share(app, NIO)
    await share(app, MIXED)
    asked = await line(app, "/forget me")
    await click(app, next(a for a in asked.actions if a.value == "yes"), ALICE)
    names = await app.db.fetch_all("SELECT shared_by, shared_name FROM server_items")
    assert len(names) > 4 and all(tuple(row) == (None, None) for row in names)
    asks = await app.db.fetch_all("SELECT shared_by FROM question_asks")
    assert asks and all(row[0] is None for row in asks)
    shown = await line(app, "/drafts", MOD)
    assert "a former member" in str(shown.fields)


async def test_untrusted_reports_are_capped_and_cleaned(app: App) -> None:
    huge = "标题\nQ: 大文件？\n" + "字" * 30_000
    assert "over 64 KB" in (await share(app, huge)).body
    many = "标题\n" + "".join(f"Q: 第 {i} 个问题关于主题 {i * 7919} 吗？\n" for i in range(31))
    assert "31 questions; at most 30" in (await share(app, many)).body
    nothing = await share(app, "只是一些感想，没有题目。")
    assert nothing.tone is Tone.USER_ERROR and "`Q:`" in nothing.body
    mention = await share(app, "某司 一面\nQ: @everyone <@42> 什么是 *RDMA* 的零拷贝？" + "长" * 99)
    (qid,) = drafted(mention)
    assert "@\u200beveryone <\u200b@42" in mention.body and "\\*RDMA\\*" in mention.body
    title = await app.db.fetch_one("SELECT title FROM questions WHERE id = ?", (qid,))
    assert title is not None and len(title[0]) == 100 and title[0].endswith("…")


async def test_imports_are_rate_limited_per_member(app: App, clock: FakeClock) -> None:
    for i in range(3):
        assert (await share(app, f"某司 {i} 面\nQ: 问题 {i} 号是什么？\n")).tone is Tone.INFO
    busy = await share(app, "某司 四面\nQ: 问题四号是什么？\n")
    assert busy.tone is Tone.USER_ERROR and "3 reports in the last hour" in busy.body
    assert (await share(app, "某司 四面\nQ: 问题四号是什么？\n", who=MOD)).tone is Tone.INFO
    clock.advance(timedelta(minutes=61))
    assert (await share(app, "某司 四面\nQ: 问题四号是什么？\n")).tone is Tone.INFO


async def test_replies_speak_chinese(app: App) -> None:
    reply = await app.core.handle(Invocation("import", {"text": TEXTS[NIO]}, MOD, HERE,
                                             Locale.ZH))  # fmt: skip
    assert reply.title == "面经已导入：蔚来 · AI Infra 实习 · 一面" and "4 道新草稿" in reply.body
    page = await line(app, "/drafts", MOD, locale=Locale.ZH)
    assert (page.title or "").startswith("草稿 1/4：") and page.actions[0].label == "通过"
    refused = await line(app, "/drafts", ALICE, locale=Locale.ZH)
    assert refused.body == "只有本服务器的版主可以审核草稿。"


async def test_daily_posts_and_reviews_draw_on_their_servers_items(
    app: App, adapter: FakeAdapter, clock: FakeClock
) -> None:
    gpu = await approved(app)
    admin = User("test", "a1", "admin", is_admin=True)
    for where in (HERE, THERE):
        set_up = await line(app, "/schedule set 09:00 Asia/Shanghai topic:gpu", admin, where)
        assert set_up.tone is Tone.INFO, set_up.body
        for _ in range(2):  # a pool of two (one in THERE) is gone through before repeating
            assert (await line(app, "/daily now", admin, where)).tone is Tone.INFO
            clock.advance(timedelta(hours=1))
    posted = {where: [str(s.reply.fields) for s in adapter.sent if s.channel == where]
              for where in (HERE, THERE)}  # fmt: skip
    assert any(gpu in fields for fields in posted[HERE])
    assert posted[THERE] and not any(gpu in fields for fields in posted[THERE])
    # a card of the server's item is dealt there only
    again = Action(ActionKind.RATE, "Again", f"{gpu}:0:1:{ALICE.id}")
    assert (await click(app, again, ALICE)).tone is Tone.INFO
    clock.advance(timedelta(days=2))
    assert gpu in str((await line(app, "/review")).fields)
    assert gpu not in str(await line(app, "/review", where=THERE))
    # the morning digest, in no server, counts the shared bank's cards only: none here
    await line(app, "/review digest:on")
    assert await app.digest.tick() == 0 and not adapter.directs


async def test_a_rejected_question_shared_again_is_not_drafted_again(app: App) -> None:
    ids = drafted(await share(app, NIO))
    assert (await line(app, f"/drafts reject {ids[0]}", MOD)).body.startswith("Rejected")
    again = await share(app, NIO, who=MOD)
    assert drafted(again) == [] and ids[0] in linked(again)
    assert (await line(app, f"/question {ids[0]}")).tone is Tone.USER_ERROR


async def test_two_members_sharing_one_report_at_once_draft_it_once(app: App) -> None:
    replies = await asyncio.gather(share(app, NIO), share(app, NIO, who=MOD))
    assert all(r.tone is Tone.INFO for r in replies), [r.body for r in replies]
    assert sorted(len(drafted(r)) for r in replies) == [0, 4]
    count = await app.db.fetch_one("SELECT count(*) FROM server_items")
    assert count is not None and int(count[0]) == 4
