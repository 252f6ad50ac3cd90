"""`/submit` and `/run`: grading posted code.

The code comes as the `code` option: a fenced block or plain text (adapters put an
attachment's text there too). Admission, storage and grading are the `Grading` service's;
this module only checks the arguments and builds the replies: the verdict, and before it,
where the adapter can show one, a notice of the submissions waiting before this one.

When grading cannot run (its sandbox is down, or strict isolation refuses it because a layer
is missing), the member is told that grading is unavailable, not "something went wrong":
it is a state of the bot, known and logged (the sandbox's start names a missing layer), not
a crash to trace. The log gets one line per refused request, with the reply's reference.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable

from bot.commands.context import Context
from bot.commands.verdicts import grade_reply
from bot.errors import BadArgument, GradingUnavailable, NotFound
from bot.grading.service import Grading, Queued
from bot.i18n import t
from bot.text.code import extract_code
from bot.types import Invocation, Reply, Tone

log = logging.getLogger(__name__)

MAX_CODE = 20_000


async def submit(ctx: Context, inv: Invocation) -> Reply:
    return await _unless_unavailable(inv, _submit(ctx, inv))


async def run(ctx: Context, inv: Invocation) -> Reply:
    return await _unless_unavailable(inv, _run(ctx, inv))


async def _submit(ctx: Context, inv: Invocation) -> Reply:
    grading = _grading(ctx)
    await grading.started()
    problem_id = inv.options["problem"].strip().lower()
    problem = grading.problem(problem_id)
    if problem is None:
        ids = ", ".join(f"`{p}`" for p in sorted(grading.grader.problems))
        raise NotFound(t(inv.locale, "grading.not_problem", id=problem_id, ids=ids))
    grade = await grading.submit(inv.user, inv.locale, problem, _code(inv), inv.channel,
                                 queued=_queued(inv))  # fmt: skip
    question = await ctx.store.get(problem.id)
    title = question.display_title(inv.locale) if question else problem.id
    return grade_reply(grade, inv.locale, title)


async def _run(ctx: Context, inv: Invocation) -> Reply:
    grade = await _grading(ctx).run(inv.user, inv.locale, _code(inv), queued=_queued(inv))
    return grade_reply(grade, inv.locale, None)


async def _unless_unavailable(inv: Invocation, graded: Awaitable[Reply]) -> Reply:
    try:
        return await graded
    except GradingUnavailable as exc:
        ref = secrets.token_hex(4)
        log.warning("/%s not graded (ref %s): %s", inv.command, ref, exc)
        return Reply(body=t(inv.locale, "grading.unavailable", ref=ref), ephemeral=True,
                     tone=Tone.FAILURE)  # fmt: skip


def _grading(ctx: Context) -> Grading:
    if ctx.grading is None:
        raise GradingUnavailable("grading is not running in this process")
    return ctx.grading


def _queued(inv: Invocation) -> Queued | None:
    """Tell the asker their place through the adapter's notice, if it has one. A notice that
    cannot be shown is logged and the grading goes on: the verdict is what matters."""
    notice = inv.notice
    if notice is None:
        return None

    async def tell(ahead: int) -> None:
        try:
            await notice(Reply(t(inv.locale, "grading.queued", ahead=ahead), ephemeral=True))
        except Exception:
            log.warning("could not show a place in the queue to %s", inv.user.id, exc_info=True)

    return tell


def _code(inv: Invocation) -> str:
    code = extract_code(inv.options.get("code", ""))
    if not code.strip():
        raise BadArgument(t(inv.locale, "grading.no_code"))
    if len(code) > MAX_CODE:
        raise BadArgument(t(inv.locale, "grading.too_long", limit=MAX_CODE))
    return code
