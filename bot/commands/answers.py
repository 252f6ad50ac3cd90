"""`/contribute`, `/adopt` and `/answers`: answers from the group to a server's open questions.

`/contribute <id> <text>` is what the "Answer this" button's form submits; it may be typed too
(the console and Slack's `/study`). It answers only an open item served in the asking server
(`bot.answers.is_open`): anything else is unknown or refused, as everywhere. `/adopt <answer>`
(the "Use as explanation" button) and `/answers <id>` are for that server's moderators:
checked on every call (`User.is_moderator` for the server the call comes from), and the store
only finds answers given in that server, so a button carried elsewhere changes nothing.

`credited` is how every command showing an explanation (`/answer`, a review's) names the
member who wrote it, when the group did.
"""

from __future__ import annotations

from bot.answers import PER_HOUR, is_open
from bot.answers.service import Answers
from bot.answers.views import listing
from bot.commands.context import Context
from bot.commands.moderators import moderators_only
from bot.community.untrusted import neutralised
from bot.errors import BadArgument, NotFound, TooBusy
from bot.i18n import t
from bot.store.answers import NewAnswer
from bot.text.code import valid_unicode
from bot.types import Invocation, Question, Reply


async def contribute(ctx: Context, inv: Invocation) -> Reply:
    answers = _answers(ctx)
    q = await _item(ctx, inv)
    if not is_open(q):
        raise BadArgument(t(inv.locale, "contribute.not_open", id=q.id))
    if not await answers.allowed(inv.user):
        raise TooBusy(t(inv.locale, "contribute.too_many", limit=PER_HOUR))
    text = neutralised(valid_unicode(inv.options["text"].strip()))
    given = await answers.give(NewAnswer(q.id, inv.channel.server, inv.user, text))
    # A post for the group speaks the server's language where the platform says one.
    posted = await answers.post(given, q, inv.channel, inv.server_locale or inv.locale)
    key = "contribute.thanks" if posted else "contribute.thanks_unposted"
    return Reply(t(inv.locale, key, id=q.id), title=t(inv.locale, "contribute.title"),
                 ephemeral=True)  # fmt: skip


async def adopt(ctx: Context, inv: Invocation) -> Reply:
    moderators_only(inv, "answers.not_moderator")
    answers, number = _answers(ctx), _number(inv)
    found = await answers.get(number, inv.channel.server)
    q = await ctx.store.get(found.item, server=inv.channel.server) if found else None
    if found is None or q is None:
        raise NotFound(t(inv.locale, "adopt.gone", id=number))
    if not is_open(q) or not await answers.adopt(found, q, inv.user):
        raise BadArgument(t(inv.locale, "adopt.taken", id=q.id))
    return Reply(t(inv.locale, "adopt.done", id=q.id), title=t(inv.locale, "adopt.title"),
                 ephemeral=True)  # fmt: skip


async def answers(ctx: Context, inv: Invocation) -> Reply:
    moderators_only(inv, "answers.not_moderator")
    q = await _item(ctx, inv)
    found, total = await _answers(ctx).open_for(inv.channel.server, q.id)
    return listing(q, found, total, inv.locale)


async def credited(ctx: Context, inv: Invocation, q: Question, reply: Reply) -> Reply:
    """`reply`, an explanation of `q` shown in this server, with its author's line if the
    group wrote it (`Answers.credit`)."""
    if ctx.answers is None:
        return reply
    return await ctx.answers.credit(reply, q, inv.channel.server, inv.locale)


async def _item(ctx: Context, inv: Invocation) -> Question:
    """The item named, served in this server: by its exact id only (an answer is never
    given to whatever question a topic would pick, as `/question gpu` does)."""
    key = inv.options["id"].strip().lower()
    found = await ctx.store.get(key, server=inv.channel.server)
    if found is None:
        raise NotFound(t(inv.locale, "error.not_found", id=key[:40]))
    return found


def _answers(ctx: Context) -> Answers:
    if ctx.answers is None:
        raise RuntimeError("answers from the group are not set up in this context")
    return ctx.answers


def _number(inv: Invocation) -> int:
    raw = inv.options.get("answer", "").strip().lstrip("#")
    if not raw.isdigit() or not 0 < int(raw) < 10**9:
        raise BadArgument(t(inv.locale, "adopt.bad_number"))
    return int(raw)
