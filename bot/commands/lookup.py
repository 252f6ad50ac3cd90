"""`/question`, `/answer` and `/topics`: looking questions up by id, at random, by topic."""

from __future__ import annotations

import asyncio
import difflib

from bot.commands.context import Context
from bot.commands.views import answer_reply, question_reply
from bot.errors import BadArgument, NotFound
from bot.i18n import t
from bot.types import Invocation, Kind, Question, Reply


async def question(ctx: Context, inv: Invocation) -> Reply:
    qid = inv.options.get("id")
    if qid and ({"topic", "kind"} & inv.options.keys()):
        raise BadArgument(t(inv.locale, "error.id_and_filters"))
    if qid:
        return question_reply(await _get_or_suggest(ctx, inv, qid), inv.locale)
    kind = _kind(inv)
    topic = await _topic(ctx, inv)
    picked = await ctx.store.pick(ctx.rng, kind=kind, topic=topic)
    if picked is None:
        filters = ", ".join(f"{k}:{v}" for k, v in inv.options.items())
        raise NotFound(t(inv.locale, "error.no_match", filters=filters))
    return question_reply(picked, inv.locale)


async def answer(ctx: Context, inv: Invocation) -> Reply:
    q = await _get_or_suggest(ctx, inv, inv.options["id"])
    await ctx.store.record_reveal(inv.user, q.id, ctx.clock.now().isoformat())
    solvers = None
    if q.kind is Kind.CODING and ctx.grading is not None:
        solvers = await ctx.grading.submissions.solvers(q.id)
    return answer_reply(q, inv.locale, solvers)


async def topics(ctx: Context, inv: Invocation) -> Reply:
    counts = await ctx.store.topics()
    lines = [t(inv.locale, "topics.line", topic=c.topic, count=c.questions) for c in counts]
    lines += ["", t(inv.locale, "topics.hint")]
    return Reply(title=t(inv.locale, "topics.title"), body="\n".join(lines))


async def _get_or_suggest(ctx: Context, inv: Invocation, qid: str) -> Question:
    """The question with id `qid`; if there is none, a NotFound that names the nearest ones."""
    key = qid.strip().lower()
    found = await ctx.store.get(key)
    if found is not None:
        return found
    if await ctx.store.topic_exists(key):
        picked = await ctx.store.pick(ctx.rng, topic=key)
        if picked is not None:  # `/question gpu`: a topic where an id was expected
            return picked
    raise NotFound(t(inv.locale, "error.not_found", id=qid), await _nearest(ctx, qid))


async def _nearest(ctx: Context, text: str, limit: int = 3) -> tuple[str, ...]:
    ids = await ctx.store.ids()
    # Fuzzy matching against every id is CPU work that grows with the bank: off the loop.
    close = await asyncio.to_thread(difflib.get_close_matches, text.lower(), ids, limit, 0.5)
    hits = [h.question_id for h in await ctx.store.search(text, limit)]
    return tuple(dict.fromkeys([*close, *hits]))[:limit]


def _kind(inv: Invocation) -> Kind | None:
    raw = inv.options.get("kind")
    return Kind(raw.lower()) if raw else None  # a valid choice: the core checked it


async def _topic(ctx: Context, inv: Invocation) -> str | None:
    raw = inv.options.get("topic")
    if raw is None:
        return None
    topic = raw.strip().lower()
    if not await ctx.store.topic_exists(topic):
        names = ", ".join(f"`{c.topic}`" for c in await ctx.store.topics())
        raise BadArgument(t(inv.locale, "error.bad_topic", topic=raw, topics=names))
    return topic
