"""`/forget me`: what the bot holds on the asker, and, once they confirm, all of it deleted.

The question comes first, privately, with the counts; the Delete button deletes the rows of
whoever presses it, never anyone else's (it carries no member id), so an old or forwarded
button can do no harm. Pressing it again finds nothing left."""

from __future__ import annotations

from bot.commands.context import Context
from bot.i18n import t
from bot.types import Action, ActionKind, Invocation, Locale, Reply


async def forget(ctx: Context, inv: Invocation) -> Reply:
    held = await ctx.members.held(inv.user)
    if not any(held.values()):
        return Reply(t(inv.locale, "forget.nothing"), title=t(inv.locale, "forget.title"),
                     ephemeral=True)  # fmt: skip
    actions = (Action(ActionKind.FORGET, t(inv.locale, "action.forget_yes"), "yes"),
               Action(ActionKind.FORGET, t(inv.locale, "action.forget_no"), "no"))  # fmt: skip
    return Reply(t(inv.locale, "forget.held", items=_listed(held, inv.locale)),
                 title=t(inv.locale, "forget.title"), actions=actions, ephemeral=True)  # fmt: skip


async def confirm(ctx: Context, inv: Invocation) -> Reply:
    title = t(inv.locale, "forget.title")
    if inv.options["answer"] != "yes":
        return Reply(t(inv.locale, "forget.kept"), title=title, ephemeral=True)
    deleted = await ctx.members.forget(inv.user)
    ctx.scores.leaderboards.forget(inv.user)
    if not any(deleted.values()):
        return Reply(t(inv.locale, "forget.nothing"), title=title, ephemeral=True)
    return Reply(t(inv.locale, "forget.done", items=_listed(deleted, inv.locale)), title=title,
                 ephemeral=True)  # fmt: skip


def _listed(counts: dict[str, int], locale: Locale) -> str:
    """The tables that hold something, as words: "2 submission(s), 1 quiz answer(s)"."""
    words = [t(locale, f"held.{table}", n=n) for table, n in counts.items() if n]
    return ("、" if locale is Locale.ZH else ", ").join(words)
