"""`/search`: full-text search, best match first, with buttons to open the top hits.

Both languages are searched whatever the reader's; a hit is shown in the reader's language
when the item has it (the bank is written in Chinese, most of it translated). The shared
bank and the asking server's own items are searched, never another server's.
Each hit says how many interview reports asked it (`bot.store.asked`; the hits' counts in one
query)."""

from __future__ import annotations

from bot.commands.context import Context
from bot.errors import BadArgument
from bot.i18n import t
from bot.types import Action, ActionKind, Invocation, Locale, Reply, SearchHit

MAX_HITS = 5
MAX_QUERY = 200  # characters; longer text is a pasted answer, not a search


async def search(ctx: Context, inv: Invocation) -> Reply:
    query = inv.options.get("query", "").strip()
    if not query:
        raise BadArgument(t(inv.locale, "search.empty"))
    if len(query) > MAX_QUERY:
        raise BadArgument(t(inv.locale, "search.too_long", limit=MAX_QUERY))
    # One more than shown: are there more? In the reader's language where an item has it.
    hits = await ctx.store.search(query, MAX_HITS + 1, inv.locale, inv.channel.server)
    title = t(inv.locale, "search.title", query=query)
    if not hits:
        return Reply(title=title, body=t(inv.locale, "search.none", query=query))
    more, hits = len(hits) > MAX_HITS, hits[:MAX_HITS]
    asked = await ctx.store.asked_counts([h.question_id for h in hits], inv.channel.server)
    lines = [_line(i, h, asked.get(h.question_id, 0), inv.locale) for i, h in enumerate(hits, 1)]
    if more:
        lines.append(t(inv.locale, "search.more", shown=MAX_HITS))
    actions = tuple(
        Action(ActionKind.SHOW_QUESTION, t(inv.locale, "action.open", id=h.question_id),
               h.question_id)
        for h in hits
    )  # fmt: skip
    return Reply(title=title, body="\n".join(lines), actions=actions)


def _line(number: int, hit: SearchHit, asked: int, locale: Locale) -> str:
    """A numbered hit: title, id, how many reports asked it (when any), then its snippet."""
    reports = f" · {t(locale, 'browse.asked', count=asked)}" if asked else ""
    return f"{number}. **{hit.title}** `{hit.question_id}`{reports}\n   {hit.snippet}"
