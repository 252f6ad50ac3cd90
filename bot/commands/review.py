"""`/review`: the member's due questions, one at a time, privately; and its settings.

A question with quick checks is dealt as one of them first (a different one each time the
card comes back), then its explanation with the rating buttons and Next (`rating.py`). One
without checks goes straight to "recall it, then open the explanation"; a coding problem
shows its statement with the rating buttons, as there is nothing to pick from. A server's
open item (`bot.answers.is_open`) has no explanation to open: its card says it is open, as
`/answer` does, and carries "Answer this" beside the rating buttons.

`/review digest:on|off` turns the member's morning list of due cards on or off;
`/review retention:0.85` (admins) sets the workspace's desired retention, which spaces every
review from then on (cards keep the due dates they have).
"""

from __future__ import annotations

from bot.answers import is_open
from bot.answers.views import answer_this
from bot.commands.context import Context
from bot.commands.rating import (
    due_phrase,
    explain_action,
    next_action,
    rating_actions,
)
from bot.errors import BadArgument
from bot.i18n import t
from bot.quiz import ShownCheck, shown_in_review
from bot.review.digest import DIGEST_HOUR
from bot.review.spacing import MAX_RETENTION, MIN_RETENTION
from bot.types import Action, ActionKind, Field, Invocation, Kind, Question, Reply

DEAL_LIMIT = 20  # due cards looked at per deal: those whose question left the bank are skipped


async def review(ctx: Context, inv: Invocation) -> Reply:
    if "retention" in inv.options:
        return await _set_retention(ctx, inv)
    if "digest" in inv.options:
        on = inv.options["digest"] == "on"  # a valid choice: the core checked it
        await ctx.prefs.set_due_digest(inv.user, on)
        key = "review.digest_on" if on else "review.digest_off"
        return Reply(t(inv.locale, key, hour=f"{DIGEST_HOUR:02d}"), ephemeral=True)
    return await deal(ctx, inv)


async def deal(ctx: Context, inv: Invocation) -> Reply:
    due = await ctx.reviews.due(inv.user, DEAL_LIMIT)
    for item in due:  # a card of a server's own item is dealt in that server only
        q = await ctx.store.get(item.question_id, server=inv.channel.server)
        if q is not None:
            return await _dealt(ctx, inv, q, len(due))
    return await _nothing_due(ctx, inv)


async def _dealt(ctx: Context, inv: Invocation, q: Question, count: int) -> Reply:
    seen = await ctx.reviews.reviews_of(inv.user, q.id)
    title = t(inv.locale, "review.title", title=q.display_title(inv.locale))
    left = (Field(t(inv.locale, "label.id"), f"`{q.id}`"),)
    footer = t(inv.locale, "review.left", count=f"{count}+" if count >= DEAL_LIMIT else count)
    if is_open(q):
        body, actions = _open_card(q, seen, inv)
    elif q.kind is Kind.CODING:
        body = "\n\n".join((q.prompt_in(inv.locale) or "", t(inv.locale, "review.coding")))
        actions = (*rating_actions(q.id, seen, inv.user, inv.locale), next_action(inv.locale))
    elif q.quiz:
        index = seen % len(q.quiz)  # each return of the card asks the next check
        shown = shown_in_review(q, index, seen, inv.user.id)
        lines = [f"**{t(inv.locale, 'quiz.label')}** {shown.check.question.in_(inv.locale)}"]
        lines += [f"**{o.letter}.** {o.option.text.in_(inv.locale)}" for o in shown.options()]
        body, actions = "\n".join(lines), _check_buttons(q.id, seen, index, shown, inv)
    else:
        body, actions = t(inv.locale, "review.think"), (explain_action(q.id, inv.user, inv.locale),)
    return Reply(body, title=title, fields=left, actions=actions, footer=footer, ephemeral=True)


def _open_card(q: Question, seen: int, inv: Invocation) -> tuple[str, tuple[Action, ...]]:
    """An item nobody has explained yet: recalled and rated at once (there is nothing to
    open), and whoever knows the answer is asked for it."""
    statement = q.prompt_in(inv.locale) if q.kind is Kind.CODING else None
    parts = (statement, t(inv.locale, "answers.open"), t(inv.locale, "rate.prompt"))
    actions = (answer_this(q.id, inv.locale), *rating_actions(q.id, seen, inv.user, inv.locale),
               next_action(inv.locale))  # fmt: skip
    return "\n\n".join(p for p in parts if p), actions


def _check_buttons(qid: str, seen: int, index: int, shown: ShownCheck,
                   inv: Invocation) -> tuple[Action, ...]:  # fmt: skip
    """The options in the order shown; each names the position it is shown at, as a post's
    do (never its index in the file, which would give the right one away)."""
    return tuple(Action(ActionKind.REVIEW_CHECK, o.letter,
                        f"{qid}:{seen}:{index}:{o.position}:{inv.user.id}")
                 for o in shown.options())  # fmt: skip


async def _nothing_due(ctx: Context, inv: Invocation) -> Reply:
    upcoming = await ctx.reviews.next_due(inv.user)
    if upcoming is None:
        return Reply(t(inv.locale, "review.empty"), ephemeral=True)
    when = await due_phrase(ctx, inv.user, upcoming.due, inv.locale)
    return Reply(t(inv.locale, "review.none", when=when), ephemeral=True)


async def _set_retention(ctx: Context, inv: Invocation) -> Reply:
    if not inv.user.is_admin:
        raise BadArgument(t(inv.locale, "review.admins_only"))
    try:
        value = round(float(inv.options["retention"]), 3)
    except ValueError:
        value = -1.0
    if not MIN_RETENTION <= value <= MAX_RETENTION:
        raise BadArgument(t(inv.locale, "review.retention_bad"))
    await ctx.prefs.set_retention(inv.user.platform, inv.channel.workspace, value)
    return Reply(t(inv.locale, "review.retention_set", value=value), ephemeral=True)
