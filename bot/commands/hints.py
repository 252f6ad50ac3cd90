"""`/hint [problem] [level]`, and the Hint button of a coding problem: its three hints one
at a time (a nudge, an approach, nearly the solution), each with a button for the next.
Hints are private, in the reader's language, and each one taken is recorded, so a later
view of a problem's solvers can say who solved it with a hint.

Without `level:`, a hint is the member's next one: the first level of the problem they have
not taken yet; once all are taken the reply says so (and `level:` shows one again). Without
a problem, it is about the coding problem they were shown last, or the one posted here as
the daily question since (`SeenStore.last_problem`), so a bare `/hint` repeated walks its
hints in turn.
"""

from __future__ import annotations

from bot.commands.context import Context
from bot.commands.lookup import get_or_suggest
from bot.errors import BadArgument, NotFound
from bot.i18n import t
from bot.types import Action, ActionKind, Invocation, Kind, Question, Reply

LEVELS = 3


async def hint(ctx: Context, inv: Invocation) -> Reply:
    problem = await _problem(ctx, inv)
    if problem.kind is not Kind.CODING or not problem.hints:
        raise BadArgument(t(inv.locale, "hint.none", id=problem.id))
    raw = inv.options.get("level")  # a valid choice if given: the core checked it
    level = int(raw) if raw else await _next_level(ctx, inv, problem)
    if level == 0:
        return Reply(t(inv.locale, "hint.all_taken", id=problem.id, count=len(problem.hints)),
                     ephemeral=True)  # fmt: skip
    if not 1 <= level <= len(problem.hints):
        raise BadArgument(t(inv.locale, "hint.none", id=problem.id))
    await ctx.store.record_hint(inv.user, problem.id, level, ctx.clock.now().isoformat())
    return _hint_reply(inv, problem, level)


async def _problem(ctx: Context, inv: Invocation) -> Question:
    if named := inv.options.get("problem"):
        return await get_or_suggest(ctx, inv, named)
    last = await ctx.seen.last_problem(inv.user, inv.channel)
    found = await ctx.store.get(last) if last is not None else None
    if found is None:
        raise NotFound(t(inv.locale, "hint.no_problem"))
    return found


async def _next_level(ctx: Context, inv: Invocation, problem: Question) -> int:
    """The first hint level of `problem` the member has not taken; 0 when all are taken."""
    taken = await ctx.store.hint_levels(inv.user, problem.id)
    return next((n for n in range(1, len(problem.hints) + 1) if n not in taken), 0)


def _hint_reply(inv: Invocation, problem: Question, level: int) -> Reply:
    text = problem.hints[level - 1].in_(inv.locale)
    more = level < len(problem.hints)
    actions = ((Action(ActionKind.HINT, t(inv.locale, "action.next_hint"),
                       f"{problem.id}:{level + 1}"),) if more else ())  # fmt: skip
    title = t(inv.locale, "hint.title", level=level, count=len(problem.hints),
              name=t(inv.locale, f"hint.level.{min(level, LEVELS)}"),
              title=problem.display_title(inv.locale))  # fmt: skip
    return Reply(text, title=title, actions=actions, ephemeral=True)
