"""`/hint <problem> [level]`, and the Hint button of a coding problem: its three hints one
at a time (a nudge, an approach, nearly the solution), each with a button for the next.
Hints are private, in the reader's language, and each one taken is recorded, so a later
view of a problem's solvers can say who solved it with a hint."""

from __future__ import annotations

from bot.commands.context import Context
from bot.commands.lookup import get_or_suggest
from bot.errors import BadArgument
from bot.i18n import t
from bot.types import Action, ActionKind, Invocation, Kind, Reply

LEVELS = 3


async def hint(ctx: Context, inv: Invocation) -> Reply:
    problem = await get_or_suggest(ctx, inv, inv.options["problem"])
    if problem.kind is not Kind.CODING or not problem.hints:
        raise BadArgument(t(inv.locale, "hint.none", id=problem.id))
    level = int(inv.options.get("level") or "1")  # a valid choice: the core checked it
    if not 1 <= level <= len(problem.hints):
        raise BadArgument(t(inv.locale, "hint.none", id=problem.id))
    await ctx.store.record_hint(inv.user, problem.id, level, ctx.clock.now().isoformat())
    text = problem.hints[level - 1].in_(inv.locale)
    more = level < len(problem.hints)
    actions = ((Action(ActionKind.HINT, t(inv.locale, "action.next_hint"),
                       f"{problem.id}:{level + 1}"),) if more else ())  # fmt: skip
    title = t(inv.locale, "hint.title", level=level, count=len(problem.hints),
              name=t(inv.locale, f"hint.level.{min(level, LEVELS)}"),
              title=problem.display_title(inv.locale))  # fmt: skip
    return Reply(text, title=title, actions=actions, ephemeral=True)
