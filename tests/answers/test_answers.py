"""Answers from the group through the bot as `open_app` builds it, on both engines: an open
item shows it is open with "Answer this"; the form's answer is thanked privately and posted
under the item's daily post (the fake platform at the `ChatAdapter` boundary) with "Use as
explanation"; a moderator of that server alone adopts it; `/answer` shows it with its author;
another server never sees it; the rate limit and caps; /forget me."""

from __future__ import annotations

from datetime import timedelta

from bot.app import App
from bot.routes import form_of, form_options
from bot.types import Action, ActionKind, ChannelRef, Invocation, Locale, Reply, Tone, User
from tests.fakes import FakeAdapter, FakeClock

# A report without answers: its questions become open items once approved.
REPORT = "字节 AI Infra 实习 一面\nQ: GPU显存带宽为什么比CPU内存带宽高？\nQ: 手撕：环形缓冲区\n"
HERE = ChannelRef("test", "c1", "guild-a")
SIDE = ChannelRef("test", "c2", "guild-a")  # another channel of the same server
THERE = ChannelRef("test", "c9", "guild-b")
ALICE = User("test", "u1", "alice")
BOB = User("test", "u2", "bob")
MOD = User("test", "m1", "mod", is_moderator=True)
OTHER_MOD = User("test", "m2", "elsewhere", is_moderator=True)
ADMIN = User("test", "a1", "admin", is_admin=True)
ANSWER = "The CPU has few **big** cores; the GPU many small ones. @everyone <@42> <!here>"


async def line(app: App, text: str, who: User = ALICE, where: ChannelRef = HERE,
               locale: Locale = Locale.EN) -> Reply:  # fmt: skip
    return await app.core.handle_line(text, user=who, channel=where, locale=locale)


async def click(app: App, action: Action, who: User, where: ChannelRef = HERE) -> Reply:
    command, options = action.invocation()
    return await app.core.handle(Invocation(command, options, who, where, Locale.EN))


async def submit(app: App, action: Action, text: str, who: User = ALICE,
                 where: ChannelRef = HERE, locale: Locale = Locale.EN) -> Reply:  # fmt: skip
    """Open the button's form and send it back filled, as every platform does."""
    form = form_of(action, locale)
    assert form is not None and [f.name for f in form.fields] == ["text"]
    assert form.fields[0].multiline and form.fields[0].max_length == 3000
    options = form_options(form.command, form.subject, {"text": text})
    return await app.core.handle(Invocation(form.command, options, who, where, locale))


def button(reply: Reply, kind: ActionKind) -> Action:
    return next(a for a in reply.actions if a.kind is kind)


async def open_item(app: App) -> str:
    """Share a report and approve its GPU question, which has no explanation: its id."""
    shared = await app.core.handle(Invocation("import", {"text": REPORT}, ALICE, HERE,
                                              Locale.EN))  # fmt: skip
    ids = [r.split("`")[1] for r in shared.body.splitlines() if r.startswith("- `")]
    gpu = next(i for i in ids if "gpu" in i)
    assert (await line(app, f"/drafts approve {gpu}", MOD)).tone is Tone.INFO
    return gpu


async def posted_daily(app: App, adapter: FakeAdapter, clock: FakeClock, item: str) -> None:
    """A daily post of `item` in HERE (the schedule's topic holds it and one bank item)."""
    set_up = await line(app, "/schedule set 09:00 Asia/Shanghai topic:gpu", ADMIN)
    assert set_up.tone is Tone.INFO, set_up.body
    for _ in range(2):
        await line(app, "/daily now", ADMIN)
        clock.advance(timedelta(hours=1))
    assert any(item in str(s.reply.fields) for s in adapter.sent)


async def test_an_open_item_is_answered_posted_in_its_thread_and_adopted(
    app: App, adapter: FakeAdapter, clock: FakeClock
) -> None:
    item = await open_item(app)
    shown = await line(app, f"/question {item}", locale=Locale.ZH)
    assert "待解答" in shown.body
    answer_this = button(shown, ActionKind.ANSWER_THIS)
    assert answer_this.label == "我来回答" and answer_this.value == item
    assert not any(a.kind is ActionKind.REVEAL_ANSWER for a in shown.actions)
    assert "open: answer it" in (await line(app, "/questions topic:gpu")).body
    await posted_daily(app, adapter, clock, item)
    daily = next(s for s in adapter.sent if item in str(s.reply.fields))
    assert button(daily.reply, ActionKind.ANSWER_THIS).value == item
    before = len(adapter.sent)

    thanks = await submit(app, answer_this, ANSWER, BOB, SIDE, Locale.ZH)  # elsewhere, in 中文
    assert thanks.ephemeral and thanks.tone is Tone.INFO and "已发给大家" in thanks.body
    [post] = adapter.sent[before:]
    assert post.thread_of == daily.ref and post.channel == HERE  # under the daily post
    assert "`bob`" in post.reply.body and "**big**" in post.reply.body  # Markdown kept
    assert "@\u200beveryone" in post.reply.body and "<\u200b@42>" in post.reply.body
    assert "<\u200b!here>" in post.reply.body
    adopt = button(post.reply, ActionKind.ADOPT_ANSWER)
    assert adopt.label == "Use as explanation"  # the schedule's language, as its posts

    assert (await click(app, adopt, ALICE)).tone is Tone.USER_ERROR  # not a moderator
    assert (await click(app, adopt, OTHER_MOD, THERE)).tone is Tone.USER_ERROR  # elsewhere
    assert "open" in (await line(app, f"/answer {item}")).body.lower()
    listed = await line(app, f"/answers {item}", MOD)
    assert "1 waiting" in (listed.title or "") and "**big**" in listed.body
    done = await click(app, adopt, MOD)
    assert done.tone is Tone.INFO and item in done.body, done.body
    assert (await click(app, adopt, MOD)).tone is Tone.USER_ERROR  # once

    explained = await line(app, f"/answer {item}")
    assert "**big**" in explained.body and "*Answer by `bob`*" in explained.body
    assert button(explained, ActionKind.REPORT_MISTAKE)  # an explanation like any other
    again = await line(app, f"/question {item}")
    assert not any(a.kind is ActionKind.ANSWER_THIS for a in again.actions)
    assert "open: answer it" not in (await line(app, "/questions topic:gpu")).body
    assert item in str((await line(app, "/search small ones")).actions)  # re-indexed
    refused = await submit(app, answer_this, "late", ALICE)
    assert refused.tone is Tone.USER_ERROR and "already has an explanation" in refused.body
    assert (await line(app, f"/answer {item}", where=THERE)).tone is Tone.USER_ERROR


async def test_without_a_daily_post_the_answer_goes_to_the_channel(
    app: App, adapter: FakeAdapter
) -> None:
    item = await open_item(app)
    reply = await line(app, f"/contribute {item} Because **bandwidth**.", BOB, SIDE)
    assert reply.ephemeral and reply.tone is Tone.INFO, reply.body
    [post] = adapter.sent
    assert post.channel == SIDE and post.thread_of is None and "**bandwidth**" in post.reply.body
    elsewhere = await line(app, f"/contribute {item} hi", BOB, THERE)
    assert elsewhere.tone is Tone.USER_ERROR and len(adapter.sent) == 1
    listed = (await line(app, "/questions topic:gpu", BOB, SIDE)).body.split("`")[1::2]
    for seen in (i for i in listed if not i.startswith("s.")):  # a topic would pick the item
        await line(app, f"/question {seen}", BOB, SIDE)
    by_topic = await line(app, "/contribute gpu an answer to whatever a topic picks", BOB, SIDE)
    assert by_topic.tone is Tone.USER_ERROR and len(adapter.sent) == 1
    shared = await line(app, "/contribute python-gil my own take")
    assert shared.tone is Tone.USER_ERROR and "already has an explanation" in shared.body


async def test_answers_are_capped_and_rate_limited(
    app: App, adapter: FakeAdapter, clock: FakeClock
) -> None:
    item = await open_item(app)
    too_long = await line(app, f"/contribute {item} " + "x" * 3001)
    assert too_long.tone is Tone.USER_ERROR and "3000" in too_long.body and not adapter.sent
    for n in range(5):
        assert (await line(app, f"/contribute {item} answer {n}")).tone is Tone.INFO
    sixth = await line(app, f"/contribute {item} one more", locale=Locale.ZH)
    assert sixth.tone is Tone.USER_ERROR and "一小时内" in sixth.body
    clock.advance(timedelta(minutes=61))
    assert (await line(app, f"/contribute {item} later")).tone is Tone.INFO
    listed = await line(app, f"/answers {item}", MOD)
    assert "6 waiting" in (listed.title or "") and "1 more" in (listed.footer or "")


async def test_forget_me_deletes_waiting_answers_and_unnames_adopted_ones(
    app: App, adapter: FakeAdapter
) -> None:
    item = await open_item(app)
    await line(app, f"/contribute {item} adopted one", BOB)
    await line(app, f"/contribute {item} waiting one", BOB)
    adopt = button(adapter.sent[0].reply, ActionKind.ADOPT_ANSWER)
    assert (await click(app, adopt, MOD)).tone is Tone.INFO
    asked = await line(app, "/forget me", BOB)
    assert "2 answer(s) you gave" in asked.body
    forget = next(a for a in asked.actions if a.value == "yes")
    assert (await click(app, forget, BOB)).tone is Tone.INFO
    explained = await line(app, f"/answer {item}")
    assert "adopted one" in explained.body and "*Answer by a former member*" in explained.body
    assert "bob" not in explained.body
    rows = await app.db.fetch_all("SELECT body, author_id, author_name FROM group_answers")
    assert [tuple(r) for r in rows] == [("adopted one", None, None)]
