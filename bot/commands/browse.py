"""`/questions [topic] [difficulty] [kind] [page] [sort]`: the bank as a list, a page at a time.

Pages hold `PAGE_SIZE` items, easiest first, or with `sort:asked` most often asked first
(`bot.store.asked`: distinct interview reports, as the asking server counts them); each line
says how many reports asked it, the page's counts read in one query. The previous and next
buttons carry the whole listing in their value (`topic=gpu;sort=asked;page=2`), so they need
no state and keep working after a restart; a page past the end says how many there are and
which is the last (a page number of any length is read, but never echoed whole).
"""

from __future__ import annotations

import math

from bot.answers import is_open
from bot.commands.context import Context
from bot.commands.lookup import difficulty_of, kind_of, topic_of
from bot.content.topics import chinese_name
from bot.errors import BadArgument, NotFound
from bot.i18n import t
from bot.types import Action, Invocation, ListOrder, Locale, Question, Reply

PAGE_SIZE = 10
MAX_PAGE = 100_000  # pages are counted up to here; a number past it is past every list
FILTERS = ("topic", "difficulty", "kind", "sort")


async def questions(ctx: Context, inv: Invocation) -> Reply:
    topic, difficulty, kind = await topic_of(ctx, inv), difficulty_of(inv), kind_of(inv)
    page = _page(inv)
    offset = (min(page, MAX_PAGE) - 1) * PAGE_SIZE  # past any list: the database's int is 64-bit
    order, server = ListOrder(inv.options.get("sort") or ListOrder.LEVEL), inv.channel.server
    total, items = await ctx.store.browse(kind=kind, topic=topic, difficulty=difficulty,
                                          offset=offset, limit=PAGE_SIZE, order=order,
                                          server=server)  # fmt: skip
    filters = {k: inv.options[k] for k in FILTERS if inv.options.get(k)}
    if topic is not None:  # by its slug: ASCII, short, the same in every language
        filters["topic"] = topic
    if total == 0:
        shown = ", ".join(f"{k}:{v}" for k, v in filters.items())
        raise NotFound(t(inv.locale, "error.no_match", filters=shown))
    pages = math.ceil(total / PAGE_SIZE)
    if not items:
        shown = str(page) if page < MAX_PAGE else f"{str(page)[:8]}…"  # not 20 digits echoed
        raise BadArgument(t(inv.locale, "browse.past_end", page=shown, pages=pages))
    first = offset + 1
    asked = await ctx.store.asked_counts([q.id for q in items], server)
    lines = [_line(q, inv.locale, asked.get(q.id, 0)) for q in items]
    return Reply(
        title=_title(inv.locale, topic, filters),
        body="\n".join(lines),
        footer=t(inv.locale, "browse.page", page=page, pages=pages, first=first,
                 last=first + len(items) - 1, total=total),
        actions=_turns(inv.locale, filters, page, pages),
    )  # fmt: skip


def _page(inv: Invocation) -> int:
    """The `page:` asked for, any whole number from 1 (full-width digits folded by the core);
    one past the end is answered with the last page's number."""
    raw = inv.options.get("page", "1").strip()
    if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
        shown = raw if len(raw) <= 12 else raw[:11] + "…"
        raise BadArgument(t(inv.locale, "browse.bad_page", page=shown))
    return int(raw)


def _title(locale: Locale, topic: str | None, filters: dict[str, str]) -> str:
    name = chinese_name(topic) if topic and locale is Locale.ZH else None
    parts = [f"{topic}（{name}）" if name else topic]
    if "difficulty" in filters:
        parts.append(t(locale, f"difficulty.{filters['difficulty']}"))
    if "kind" in filters:
        parts.append(t(locale, f"kind.{filters['kind']}"))
    if filters.get("sort") == ListOrder.ASKED:
        parts.append(t(locale, "browse.by_asked"))
    shown = " · ".join(p for p in parts if p)
    return t(locale, "browse.filtered", filters=shown) if shown else t(locale, "browse.title")


def _line(q: Question, locale: Locale, asked: int) -> str:
    level = t(locale, f"difficulty.{q.difficulty.value}")
    kind = f" · {t(locale, 'kind.coding')}" if q.kind.value == "coding" else ""
    reports = f" · {t(locale, 'browse.asked', count=asked)}" if asked else ""
    waiting = f" · {t(locale, 'browse.open')}" if is_open(q) else ""
    return f"`{q.id}` {q.display_title(locale)} · {level}{kind}{reports}{waiting}"


def _turns(locale: Locale, filters: dict[str, str], page: int,
           pages: int) -> tuple[Action, ...]:  # fmt: skip
    turns = []
    if page > 1:
        turns.append(Action.browse(t(locale, "action.previous_page"),
                                   {**filters, "page": str(page - 1)}))  # fmt: skip
    if page < pages:
        turns.append(Action.browse(t(locale, "action.next_page"),
                                   {**filters, "page": str(page + 1)}))  # fmt: skip
    return tuple(turns)
