"""`/report`, `/reports` and `/resolve`: a mistake in an explanation, reported and resolved.

`/report <id> <what is wrong>` (with `quote:` where a form can give one) is what the "Report a
mistake" button's form submits; it may be typed too (the console has no forms). `/reports`
shows a server's open reports one a page to its moderators, and `/resolve <report> <note>`
(the Resolve button's form) closes one and tells the reporter (bot/mistakes/service.py).

Moderation is checked on every call, never remembered: the adapter says whether the member
moderates the server the call comes from (`User.is_moderator`), and the store only pages and
resolves reports of that server (`ChannelRef.server`), so a button carried to another server
shows and changes nothing there.
"""

from __future__ import annotations

from bot.commands.context import Context
from bot.commands.moderators import moderators_only
from bot.errors import BadArgument, NotFound, TooBusy
from bot.i18n import t
from bot.mistakes import PER_HOUR
from bot.mistakes.service import Mistakes
from bot.mistakes.views import report_page
from bot.store.community import PREFIX
from bot.store.mistakes import NewReport
from bot.types import Action, ActionKind, Invocation, Locale, Reply


async def report(ctx: Context, inv: Invocation) -> Reply:
    mistakes, item = _mistakes(ctx), inv.options["id"].strip().lower()
    if not await _reportable(ctx, item, inv.channel.server):
        raise NotFound(t(inv.locale, "error.not_found", id=item[:40]))
    if not await mistakes.allowed(inv.user):
        raise TooBusy(t(inv.locale, "report.too_many", limit=PER_HOUR))  # a member's own limit
    new = NewReport(item, inv.channel.server, inv.user, inv.locale,
                    inv.options.get("quote", "").strip(), inv.options["text"].strip())  # fmt: skip
    await mistakes.file(new)
    return Reply(t(inv.locale, "report.thanks", id=item), title=t(inv.locale, "report.title"),
                 ephemeral=True)  # fmt: skip


async def reports(ctx: Context, inv: Invocation) -> Reply:
    moderators_only(inv, "reports.not_moderator")
    page = _number(inv, "page", "1")
    found, total = await _mistakes(ctx).page(inv.channel.server, page - 1)
    if total and found is None:  # past the end (a report resolved meanwhile): the last one
        page = total
        found, total = await _mistakes(ctx).page(inv.channel.server, page - 1)
    if found is None:
        return Reply(t(inv.locale, "reports.none"), title=t(inv.locale, "reports.heading"),
                     ephemeral=True)  # fmt: skip
    return report_page(found, await _title(ctx, found.item, inv.locale), page - 1, total,
                       inv.locale)  # fmt: skip


async def resolve(ctx: Context, inv: Invocation) -> Reply:
    moderators_only(inv, "reports.not_moderator")
    mistakes, number = _mistakes(ctx), _number(inv, "report", "")
    done = await mistakes.resolve(number, inv.channel.server, inv.user,
                                  inv.options["note"].strip())  # fmt: skip
    if done is None:
        raise NotFound(t(inv.locale, "reports.gone", id=number))
    told = await mistakes.tell_reporter(done, await _title(ctx, done.item, done.locale))
    _, left = await mistakes.page(inv.channel.server, 0)
    key = "reports.resolved_told" if told else "reports.resolved_untold"
    more = (Action(ActionKind.REPORTS_PAGE, t(inv.locale, "action.next"), "1"),) if left else ()
    return Reply(t(inv.locale, key, id=number, left=left), title=t(inv.locale, "reports.heading"),
                 actions=more, ephemeral=True)  # fmt: skip


def _mistakes(ctx: Context) -> Mistakes:
    if ctx.mistakes is None:
        raise RuntimeError("reported mistakes are not set up in this context")
    return ctx.mistakes


def _number(inv: Invocation, option: str, default: str) -> int:
    raw = inv.options.get(option, default).strip().lstrip("#")
    if not raw.isdigit() or not 0 < int(raw) < 10**9:
        raise BadArgument(t(inv.locale, "reports.bad_number", option=option))
    return int(raw)


async def _reportable(ctx: Context, item: str, server: str) -> bool:
    """Whether `item` may be reported from `server`: served there (the shared bank or the
    server's own item), or a shared-bank item since retired (an old post's explanation).
    Another server's item is unknown here, as everywhere."""
    if await ctx.store.get(item, server=server) is not None:
        return True
    found = await ctx.store.get(item, retired=True)
    return found is not None and not found.id.startswith(PREFIX)


async def _title(ctx: Context, item: str, locale: Locale) -> str:
    q = await ctx.store.get(item, retired=True, drafts=True)
    return q.display_title(locale) if q is not None else ""
