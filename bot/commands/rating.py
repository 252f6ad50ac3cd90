"""Rating buttons and what they do: Again/Hard/Good/Easy under an explanation (`/answer`,
the Show-answer button, a `/review`), and the quick check and explanation steps of a review.

Every button names the member it was dealt to (`owner`) and how many reviews their card had
then (`seen`). A click by anyone else is refused with a sentence; a click after the card was
reviewed again (the same button twice, a replayed interaction, a quiz answer in between)
finds a different count and changes nothing. So a button needs no state to work after a
restart, and cannot be replayed into extra reviews.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from bot.commands.answers import credited
from bot.commands.context import Context
from bot.errors import BadArgument, NotFound
from bot.i18n import t
from bot.quiz import shown_in_review
from bot.review.spacing import Recall
from bot.review.when import next_review
from bot.types import Action, ActionKind, Invocation, Locale, Question, Reply, Tone, User
from bot.views import answer_reply

RECALLS = tuple(Recall)


def rating_actions(qid: str, seen: int, owner: User, locale: Locale) -> tuple[Action, ...]:
    return tuple(Action(ActionKind.RATE, t(locale, f"rate.{r.name.lower()}"),
                        f"{qid}:{seen}:{r.value}:{owner.id}") for r in RECALLS)  # fmt: skip


def next_action(locale: Locale) -> Action:
    return Action(ActionKind.REVIEW_NEXT, t(locale, "action.review_next"), "next")


def explain_action(qid: str, owner: User, locale: Locale) -> Action:
    return Action(ActionKind.REVIEW_EXPLAIN, t(locale, "action.review_explain"),
                  f"{qid}:{owner.id}")  # fmt: skip


async def with_ratings(ctx: Context, inv: Invocation, q: Question, reply: Reply) -> Reply:
    """`reply` (an explanation) with the reader's rating buttons after its own (but before
    Report a mistake, which stays last)."""
    seen = await ctx.reviews.reviews_of(inv.user, q.id)
    rates = rating_actions(q.id, seen, inv.user, inv.locale)
    last = tuple(a for a in reply.actions if a.kind is ActionKind.REPORT_MISTAKE)
    first = tuple(a for a in reply.actions if a.kind is not ActionKind.REPORT_MISTAKE)
    return dataclasses.replace(reply, actions=(*first, *rates, *last))


async def rate(ctx: Context, inv: Invocation) -> Reply:
    q = await _mine(ctx, inv)
    seen, raw = _number(inv, "seen"), _number(inv, "rating")
    if raw not in Recall._value2member_map_:
        raise BadArgument(t(inv.locale, "review.gone"))
    recall = Recall(raw)
    held = await ctx.reviews.rate(inv.user, inv.channel.workspace, q.id, recall, seen)
    if held is None:
        return Reply(t(inv.locale, "rate.already"), ephemeral=True)
    await ctx.ledger.reviewed(inv.user, inv.channel, q.id, correct=recall is not Recall.AGAIN,
                              at=ctx.clock.now(), reviews_before=seen)  # fmt: skip
    when = await due_phrase(ctx, inv.user, held.card.due, inv.locale)
    name = t(inv.locale, f"rate.{recall.name.lower()}")
    # Next is offered without looking for a due card first (one query less on the hot path):
    # with none due, it says when the next one is.
    return Reply(t(inv.locale, "rate.done", rating=name, when=when), ephemeral=True,
                 actions=(next_action(inv.locale),))  # fmt: skip


async def check(ctx: Context, inv: Invocation) -> Reply:
    """An option of a review's quick check: right or wrong and why, the card reviewed as a
    quiz answer reviews it, and the explanation offered."""
    q = await _mine(ctx, inv)
    seen, index, position = _number(inv, "seen"), _number(inv, "check"), _number(inv, "choice")
    if not 0 <= index < len(q.quiz):
        raise NotFound(t(inv.locale, "review.gone"))
    # `choice` is the position the prompt showed the option at (0 for A), read back through
    # its order; a prompt dealt before options were drawn is read in the order drawn now.
    shown = shown_in_review(q, index, seen, inv.user.id)  # as the prompt showed it
    picked = shown.at(position)
    if picked is None:
        raise NotFound(t(inv.locale, "review.gone"))
    right = shown.is_right(picked.choice)
    held = await ctx.reviews.quiz_answered(inv.user, inv.channel.workspace, q.id, right, seen)
    if held is None:
        return Reply(t(inv.locale, "rate.already"), ephemeral=True)
    await ctx.ledger.reviewed(inv.user, inv.channel, q.id, correct=right, at=ctx.clock.now(),
                              reviews_before=seen)  # fmt: skip
    option, letter = picked.option, picked.letter
    when = await due_phrase(ctx, inv.user, held.card.due, inv.locale)
    title = t(inv.locale, "quiz.right" if right else "quiz.wrong", letter=letter,
              text=option.text.in_(inv.locale))  # fmt: skip
    body = "\n".join((option.why.in_(inv.locale), t(inv.locale, "review.checked", when=when)))
    return Reply(body, title=title, ephemeral=True, tone=Tone.INFO,
                 actions=(explain_action(q.id, inv.user, inv.locale),))  # fmt: skip


async def explain(ctx: Context, inv: Invocation) -> Reply:
    """A reviewed question's explanation, privately, with the rating buttons and Next."""
    q = await _mine(ctx, inv)
    shown = dataclasses.replace(answer_reply(q, inv.locale), ephemeral=True, in_thread=False)
    rated = await with_ratings(ctx, inv, q, await credited(ctx, inv, q, shown))
    footer = _joined(rated.footer, t(inv.locale, "rate.prompt"))
    return dataclasses.replace(rated, actions=(*rated.actions, next_action(inv.locale)),
                               footer=footer)  # fmt: skip


async def due_phrase(ctx: Context, user: User, due: datetime, locale: Locale) -> str:
    """When `due` is, in the member's own days (their zone, as their streak counts them)."""
    return next_review(due, ctx.clock.now(), await ctx.ledger.zone(user), locale)


async def _mine(ctx: Context, inv: Invocation) -> Question:
    """The button's question, once the clicker is known to be the one it was dealt to."""
    qid = inv.options.get("id", "")
    if inv.options.get("owner") != inv.user.id:
        raise BadArgument(t(inv.locale, "review.not_yours", id=qid))
    q = await ctx.store.get(qid, retired=True)
    if q is None:
        raise NotFound(t(inv.locale, "review.gone"))
    return q


def _number(inv: Invocation, name: str) -> int:
    raw = inv.options.get(name, "")
    if not raw.isdigit():
        raise BadArgument(t(inv.locale, "review.gone"))
    return int(raw)


def _joined(footer: str | None, more: str) -> str:
    return f"{footer} · {more}" if footer else more
