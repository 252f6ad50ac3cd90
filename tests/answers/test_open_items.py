"""Open items and adopted explanations wherever a question is shown, through the bot as
`open_app` builds it, on both engines: a review card of an open item says it is open and
asks for an answer beside its rating buttons; an adopted explanation names its author (or a
former member, once forgotten) under the daily answer post, a review's explanation and the
language buttons' replies, as under `/answer`."""

from __future__ import annotations

from datetime import timedelta

from bot.app import App
from bot.types import Action, ActionKind, Locale, Reply, Tone
from tests.answers.test_answers import (
    ALICE,
    BOB,
    MOD,
    REPORT,
    SIDE,
    button,
    click,
    line,
    open_item,
    posted_daily,
    submit,
)
from tests.fakes import FakeAdapter, FakeClock

ADOPTED = "HBM stacks **wide** buses beside the die."


def press(reply: Reply, kind: ActionKind, label: str) -> Action:
    return next(a for a in reply.actions if a.kind is kind and a.label == label)


async def due_card(app: App, clock: FakeClock, item: str) -> None:
    """ALICE rates `item` Again under `/answer`: its card is due once the clock passes a day."""
    shown = await line(app, f"/answer {item}")
    assert (await click(app, press(shown, ActionKind.RATE, "Again"), ALICE)).tone is Tone.INFO
    clock.advance(timedelta(days=1, hours=1))


async def test_a_review_card_of_an_open_item_says_so_and_asks_for_an_answer(
    app: App, adapter: FakeAdapter, clock: FakeClock
) -> None:
    item = await open_item(app)
    await due_card(app, clock, item)

    card = await line(app, "/review", locale=Locale.ZH)
    assert card.ephemeral and "待解答" in card.body and item in str(card.fields)
    assert "先回想答案，再查看解析" not in card.body  # there is no explanation to open
    assert "面经没有给出答案" not in card.body
    answer_this = button(card, ActionKind.ANSWER_THIS)
    assert answer_this.label == "我来回答" and answer_this.value == item
    rates = [a.label for a in card.actions if a.kind is ActionKind.RATE]
    assert rates == ["重来", "困难", "良好", "简单"]
    assert not any(a.kind is ActionKind.REVIEW_EXPLAIN for a in card.actions)
    assert button(card, ActionKind.REVIEW_NEXT)

    thanks = await submit(app, answer_this, ADOPTED, ALICE, locale=Locale.ZH)
    assert thanks.tone is Tone.INFO and "已发给大家" in thanks.body
    assert ADOPTED in adapter.sent[-1].reply.body
    rated = await click(app, press(card, ActionKind.RATE, "良好"), ALICE)
    assert rated.tone is Tone.INFO and rated.body.startswith("Rated Good"), rated.body
    rows = await app.db.fetch_all("SELECT rating FROM reviews WHERE question_id = ? ORDER BY id",
                                  (item,))  # fmt: skip
    assert [int(r[0]) for r in rows] == [1, 3]  # Again under /answer, Good on the card

    # A card dealt before carries "Show explanation": it says the item is open too.
    shown = await click(app, Action(ActionKind.REVIEW_EXPLAIN, "Show", f"{item}:{ALICE.id}"), ALICE)
    assert shown.ephemeral and "Open question" in shown.body
    assert button(shown, ActionKind.ANSWER_THIS).value == item
    assert len([a for a in shown.actions if a.kind is ActionKind.RATE]) == 4


async def daily_answer(app: App, adapter: FakeAdapter, clock: FakeClock, item: str) -> Reply:
    """Post `item` as a daily question in HERE, then its answer eight hours later."""
    await posted_daily(app, adapter, clock, item)
    clock.advance(timedelta(hours=8))
    before = len(adapter.sent)
    await app.scheduler.tick()
    [answer] = [s.reply for s in adapter.sent[before:] if ADOPTED in s.reply.body]
    return answer


async def test_an_adopted_explanation_names_its_author_wherever_it_is_shown(
    app: App, adapter: FakeAdapter, clock: FakeClock
) -> None:
    item = await open_item(app)
    await line(app, f"/contribute {item} {ADOPTED}", BOB)
    assert (await click(app, button(adapter.sent[0].reply, ActionKind.ADOPT_ANSWER), MOD)).tone \
        is Tone.INFO  # fmt: skip
    await due_card(app, clock, item)

    posted = await daily_answer(app, adapter, clock, item)
    assert posted.body.endswith("*Answer by `bob`*"), posted.body
    card = await line(app, "/review")
    explain = button(card, ActionKind.REVIEW_EXPLAIN)
    shown = await click(app, explain, ALICE)
    assert ADOPTED in shown.body and shown.body.endswith("*Answer by `bob`*"), shown.body
    rated = await click(app, press(shown, ActionKind.RATE, "Good"), ALICE)
    assert rated.tone is Tone.INFO and rated.body.startswith("Rated Good")
    switch = Action.in_language(ActionKind.ANSWER_IN, "中文", item, Locale.ZH)  # as its button
    switched = await click(app, switch, ALICE)
    assert ADOPTED in switched.body and "*Answer by `bob`*" in switched.body
    in_chinese = await line(app, f"/answer {item}", locale=Locale.ZH)
    assert in_chinese.body.endswith("*解答者：`bob`*")

    asked = await line(app, "/forget me", BOB)
    assert (await click(app, next(a for a in asked.actions if a.value == "yes"), BOB)).tone \
        is Tone.INFO  # fmt: skip
    again = await daily_answer(app, adapter, clock, item)  # the pool's next round
    assert again.body.endswith("*Answer by a former member*") and "bob" not in again.body
    shown = await click(app, explain, ALICE)
    assert shown.body.endswith("*Answer by a former member*") and "bob" not in shown.body
    elsewhere = await line(app, f"/answer {item}", where=SIDE)  # the same server
    assert elsewhere.body.endswith("*Answer by a former member*")


async def test_an_open_problem_is_reviewed_from_its_statement(
    app: App, adapter: FakeAdapter, clock: FakeClock
) -> None:
    shared = await line(app, f"/import {REPORT}")
    ids = [r.split("`")[1] for r in shared.body.splitlines() if r.startswith("- `")]
    problem = next(i for i in ids if "gpu" not in i)
    assert (await line(app, f"/drafts approve {problem}", MOD)).tone is Tone.INFO
    await due_card(app, clock, problem)

    card = await line(app, "/review")
    assert "环形缓冲区" in card.body and "Open question" in card.body, card.body
    assert "The report gave no answer" not in card.body
    assert button(card, ActionKind.ANSWER_THIS).value == problem
    assert len([a for a in card.actions if a.kind is ActionKind.RATE]) == 4
