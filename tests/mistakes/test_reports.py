"""Reporting a mistake through the bot as `open_app` builds it, on both engines: the button
under every explanation, its form's submission, the caps and the rate limit, `/reports` for
the server's moderators alone, resolving with a note that reaches the reporter by direct
message (through the fake platform at the `ChatAdapter` boundary), and /forget me."""

from __future__ import annotations

from datetime import timedelta

from bot.app import App
from bot.errors import DeliveryError
from bot.routes import form_of, form_options
from bot.types import Action, ActionKind, ChannelRef, Invocation, Locale, Reply, Tone, User
from tests.fakes import FakeAdapter, FakeClock

ALICE = User("test", "u1", "alice")
MOD = User("test", "m1", "mod", is_moderator=True)
HERE = ChannelRef("test", "c1", "g1")
ELSEWHERE = ChannelRef("test", "c9", "g2")


async def run(app: App, line: str, who: User = ALICE, where: ChannelRef = HERE,
              locale: Locale = Locale.EN) -> Reply:  # fmt: skip
    return await app.core.handle_line(line, user=who, channel=where, locale=locale)


async def submit(app: App, action: Action, values: dict[str, str], who: User = ALICE,
                 where: ChannelRef = HERE, locale: Locale = Locale.EN) -> Reply:  # fmt: skip
    """Open the button's form and send it back filled, as every platform does."""
    form = form_of(action, locale)
    assert form is not None
    options = form_options(form.command, form.subject, values)
    return await app.core.handle(Invocation(form.command, options, who, where, locale))


def button(reply: Reply, kind: ActionKind) -> Action:
    return next(a for a in reply.actions if a.kind is kind)


async def test_a_report_from_the_answer_reaches_the_moderator_and_the_note_the_reporter(
    app: App, adapter: FakeAdapter
) -> None:
    answer = await run(app, "/answer python-gil", locale=Locale.ZH)
    report = button(answer, ActionKind.REPORT_MISTAKE)
    assert report.label == "报告错误" and report.value == "python-gil"
    assert answer.actions[-1] == report  # after the rating buttons
    sent = {"text": "The figure is **wrong** @everyone <@42>", "quote": "[click](http://x)"}
    thanks = await submit(app, report, sent, locale=Locale.ZH)
    assert thanks.ephemeral and thanks.tone is Tone.INFO and "版主" in thanks.body

    refused = await run(app, "/reports")
    assert refused.tone is Tone.USER_ERROR and "moderators" in refused.body
    page = await run(app, "/reports", MOD)
    assert page.ephemeral and page.title == "Reported mistake 1 of 1"
    assert "```text\nThe figure is **wrong** @\u200beveryone <\u200b@42>\n```" in page.body
    assert "```text\n[click](http://x)\n```" in page.body  # Markdown shown, never read
    fields = {f.name: f.value for f in page.fields}
    assert fields["Reported by"] == "`alice`" and "python-gil" in fields["Item"]
    assert fields["When"] == "2026-01-05 09:00 UTC"
    resolve = button(page, ActionKind.RESOLVE_REPORT)
    assert await run(app, "/reports", MOD, ELSEWHERE) == Reply(  # another server's: none
        "No open reports in this server.", title="Reported mistakes", ephemeral=True
    )
    elsewhere = await submit(app, resolve, {"note": "no"}, MOD, ELSEWHERE)
    assert elsewhere.tone is Tone.USER_ERROR and not adapter.directs
    not_mod = await submit(app, resolve, {"note": "done"}, ALICE)
    assert not_mod.tone is Tone.USER_ERROR and not adapter.directs

    done = await submit(app, resolve, {"note": "Fixed, thanks!"}, MOD)
    assert "the reporter has your note" in done.body and "left: 0" in done.body
    [(to, dm)] = adapter.directs
    assert (to.platform, to.id) == ("test", "u1")
    assert dm.title == "你报告的错误" and "Fixed, thanks!" in dm.body  # the reporter's language
    assert (await run(app, "/reports", MOD)).body == "No open reports in this server."
    again = await submit(app, resolve, {"note": "twice"}, MOD)
    assert again.tone is Tone.USER_ERROR and len(adapter.directs) == 1


async def test_every_explanation_carries_the_button(app: App) -> None:
    assert button(await run(app, "/answer fast-power"), ActionKind.REPORT_MISTAKE)
    reveal = Action(ActionKind.REVEAL_ANSWER, "", "python-gil")
    clicked = await app.core.handle(Invocation(*reveal.invocation(), ALICE, HERE, Locale.EN))
    assert button(clicked, ActionKind.REPORT_MISTAKE).label == "Report a mistake"
    explain = Action(ActionKind.REVIEW_EXPLAIN, "", f"python-gil:{ALICE.id}")  # a review's
    explained = await app.core.handle(Invocation(*explain.invocation(), ALICE, HERE, Locale.EN))
    assert button(explained, ActionKind.REPORT_MISTAKE).value == "python-gil"


async def test_caps_and_a_rate_limit_per_member(app: App, clock: FakeClock) -> None:
    report = Action(ActionKind.REPORT_MISTAKE, "", "python-gil")
    too_long = await submit(app, report, {"text": "x" * 1001})
    assert too_long.tone is Tone.USER_ERROR and "1000" in too_long.body
    long_quote = await submit(app, report, {"text": "wrong", "quote": "q" * 301})
    assert long_quote.tone is Tone.USER_ERROR and "300" in long_quote.body
    empty = await submit(app, report, {"text": "  "})
    assert empty.tone is Tone.USER_ERROR
    unknown = await submit(app, Action(ActionKind.REPORT_MISTAKE, "", "no-such-item"),
                           {"text": "wrong"})  # fmt: skip
    assert unknown.tone is Tone.USER_ERROR
    for _ in range(5):
        assert (await submit(app, report, {"text": "wrong"})).tone is Tone.INFO
    sixth = await submit(app, report, {"text": "wrong"}, locale=Locale.ZH)
    assert sixth.tone is Tone.USER_ERROR and "一小时内" in sixth.body
    other = User("test", "u2", "bob")
    assert (await submit(app, report, {"text": "wrong"}, other)).tone is Tone.INFO
    clock.advance(timedelta(hours=1, seconds=1))
    assert (await submit(app, report, {"text": "wrong"})).tone is Tone.INFO
    assert (await run(app, "/reports", MOD)).title == "Reported mistake 1 of 7"


async def test_moderators_page_through_open_reports(app: App) -> None:
    for n in range(3):
        await run(app, f"/report python-gil mistake number {n}")
    first = await run(app, "/reports", MOD)
    labels = [a.label for a in first.actions]
    assert labels == ["Resolve", "Next ▶"] and "number 0" in first.body
    following = button(first, ActionKind.REPORTS_PAGE)
    second = await app.core.handle(Invocation(*following.invocation(), MOD, HERE, Locale.EN))
    assert second.title == "Reported mistake 2 of 3" and "number 1" in second.body
    assert [a.label for a in second.actions] == ["Resolve", "◀ Previous", "Next ▶"]
    past = await run(app, "/reports page:9", MOD)
    assert past.title == "Reported mistake 3 of 3"  # the last one
    assert (await run(app, "/reports page:x", MOD)).tone is Tone.USER_ERROR


async def test_a_forgotten_reporter_leaves_the_text_and_hears_nothing(
    app: App, adapter: FakeAdapter
) -> None:
    await run(app, "/report python-gil the latency figure is off")
    asked = await run(app, "/forget me")
    assert "1 reported mistake(s) (their text stays, without your name)" in asked.body
    yes = button(asked, ActionKind.FORGET)
    await app.core.handle(Invocation(*yes.invocation(), ALICE, HERE, Locale.EN))
    page = await run(app, "/reports", MOD)
    assert "the latency figure is off" in page.body
    assert {f.name: f.value for f in page.fields}["Reported by"] == (
        "a member who asked to be forgotten")  # fmt: skip
    done = await run(app, "/resolve 1 thanks", MOD)
    assert "could not be reached" in done.body and not adapter.directs


async def test_a_reporter_who_takes_no_direct_messages_still_has_the_report_resolved(
    app: App, adapter: FakeAdapter
) -> None:
    await run(app, "/report python-gil the latency figure is off")
    adapter.failures.append(DeliveryError("Cannot send messages to this user"))
    done = await run(app, "/resolve 1 fixed", MOD)
    assert "could not be reached" in done.body and not adapter.directs
    assert (await run(app, "/reports", MOD)).body == "No open reports in this server."
