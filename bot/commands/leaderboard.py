"""`/leaderboard [period:week|month|all] [topic] [scope:server|channel] [problem]`.

Points from the ledger, per server (the default) or per channel; `week` and `month` are the
current ones in the asking channel's schedule zone, else UTC (`bot/learning/periods.py`).
The top ten are shown as an aligned table (names measured by display width, so Chinese
names line up), and the asker's own rank under it when they are not among them.

With `problem:<id>` it shows that coding problem instead: who solved it, how many on their
first try, the fastest CPU time, and a mark on each solver who took a hint first.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from bot.commands.context import Context
from bot.commands.lookup import topic_of
from bot.errors import BadArgument
from bot.i18n import t
from bot.learning.periods import since
from bot.store.boards import ProblemBoard, Scope, Solver, Standing
from bot.text.tables import render_table
from bot.types import Invocation, Kind, Locale, Reply

TOP = 10


async def leaderboard(ctx: Context, inv: Invocation) -> Reply:
    if inv.options.get("problem", "").strip():
        return await _problem(ctx, inv, inv.options["problem"].strip().lower())
    period = inv.options.get("period") or "week"  # a valid choice: the core checked it
    per_channel = inv.options.get("scope") == "channel"
    topic = await topic_of(ctx, inv)
    span = since(period, ctx.clock.now(), await _zone(ctx, inv))
    here = inv.channel
    scope = Scope(here.platform, here.workspace or "", here.channel if per_channel else None,
                  span.start, span.end, topic)  # fmt: skip
    rows = await ctx.scores.leaderboards.standings(scope, inv.user.id, TOP)
    where = t(inv.locale, f"board.scope.{'channel' if per_channel else 'server'}")
    title = t(inv.locale, "board.title", period=t(inv.locale, f"board.period.{period}"),
              scope=where)  # fmt: skip
    lines = [t(inv.locale, "board.topic", topic=topic)] if topic else []
    return Reply("\n".join([*lines, *_standings(rows, inv.user.id, inv.locale)]), title=title)


async def _zone(ctx: Context, inv: Invocation) -> ZoneInfo:
    schedule = await ctx.schedules.for_channel(inv.channel)
    return schedule.zone if schedule is not None else ZoneInfo("UTC")


def _standings(rows: list[Standing], asker: str, locale: Locale) -> list[str]:
    top = [r for r in rows if r.rank <= TOP]
    if not top:
        return [t(locale, "board.empty")]
    header = [t(locale, "board.rank"), t(locale, "board.member"), t(locale, "board.points")]
    table = render_table([header, *([str(r.rank), name(r.name), str(r.points)] for r in top)])
    mine = next((r for r in rows if r.user_id == asker), None)
    lines = ["```", *table, "```"]
    if mine is None:
        lines.append(t(locale, "board.you_none"))
    elif mine.rank > TOP:
        lines.append(t(locale, "board.you", rank=mine.rank, points=mine.points))
    return lines


async def _problem(ctx: Context, inv: Invocation, problem_id: str) -> Reply:
    question = await ctx.store.get(problem_id)
    if question is None or question.kind is not Kind.CODING:
        ids = ", ".join(f"`{p}`" for p in sorted(await ctx.store.ids_matching(kind=Kind.CODING)))
        raise BadArgument(t(inv.locale, "board.not_problem", id=problem_id[:60], ids=ids))
    board = await ctx.scores.boards.problem(inv.user.platform, inv.channel.workspace or "",
                                            problem_id)  # fmt: skip
    title = t(inv.locale, "board.problem_title", title=question.display_title(inv.locale))
    return Reply("\n".join(_solvers(board, problem_id, inv.locale)), title=title)


def _solvers(board: ProblemBoard, problem_id: str, locale: Locale) -> list[str]:
    if not board.solvers:
        return [t(locale, "board.nobody_solved", id=problem_id)]
    solved = len(board.solvers)
    rate = round(100 * board.first_try / board.attempted)
    lines = [t(locale, "board.problem_stats", solvers=solved, attempted=board.attempted,
               first=board.first_try, rate=rate)]  # fmt: skip
    if (fastest := board.fastest) is not None:
        lines.append(
            t(locale, "board.fastest", ratio=f"{fastest.relative_cpu:.2f}", name=fastest.name)
        )
    lines += [f"{i}. {_solver(s, locale)}" for i, s in enumerate(board.solvers, 1)]
    return lines


def _solver(s: Solver, locale: Locale) -> str:
    marks = [t(locale, "board.first_try")] if s.first_try else []
    marks += [t(locale, "board.hinted")] if s.hinted else []
    return " · ".join([name(s.name), *marks])


def name(shown: str) -> str:
    """A display name safe inside Markdown and code blocks, and not too long for a table."""
    clean = shown.replace("`", "'").replace("*", "").replace("_", " ").strip() or "?"
    return clean if len(clean) <= 24 else clean[:23] + "…"
