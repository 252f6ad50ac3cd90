"""`/question`, `/answer` and `/topics`: looking questions up by id, by topic, or the next
one the asker should see (unseen first, then due for review: `bot.store.seen`).

A topic is asked for by slug, Chinese name or alias (`bot.content.topics`). Content is shown
in the reader's language unless `lang:` asks for the other (the language button does).
A draft is never shown: asked for by id, the reply says it is a draft. What is served is
the shared bank and the asking channel's server's own items (`ChannelRef.server`).
"""

from __future__ import annotations

import asyncio
import difflib

from bot.commands.answers import credited
from bot.commands.context import Context
from bot.commands.rating import with_ratings
from bot.content.topics import chinese_name, slug_for
from bot.errors import BadArgument, NotFound
from bot.i18n import t
from bot.types import Difficulty, Invocation, Kind, Locale, Question, Reply
from bot.views import answer_reply, question_reply


async def question(ctx: Context, inv: Invocation) -> Reply:
    qid = inv.options.get("id")
    if qid and ({"topic", "kind", "difficulty"} & inv.options.keys()):
        raise BadArgument(t(inv.locale, "error.id_and_filters"))
    shown = await get_or_suggest(ctx, inv, qid) if qid else await _next_for(ctx, inv)
    await ctx.seen.record(inv.user, shown.id, ctx.clock.now())
    asked = await ctx.store.asked(shown.id, inv.channel.server)
    return question_reply(shown, inv.locale, _lang(inv), asked=asked)


async def answer(ctx: Context, inv: Invocation) -> Reply:
    q = await get_or_suggest(ctx, inv, inv.options["id"])
    await ctx.store.record_reveal(inv.user, q.id, ctx.clock.now().isoformat())
    await ctx.seen.record(inv.user, q.id, ctx.clock.now())
    solvers = None
    if q.kind is Kind.CODING and ctx.grading is not None:
        solvers = await ctx.grading.submissions.solvers(q.id)
    reply = answer_reply(q, inv.locale, solvers, _lang(inv))
    return await with_ratings(ctx, inv, q, await credited(ctx, inv, q, reply))


async def topics(ctx: Context, inv: Invocation) -> Reply:
    counts = await ctx.store.topics(inv.channel.server)
    lines = [_topic_line(inv.locale, c.topic, c.questions) for c in counts]
    lines += ["", t(inv.locale, "topics.hint")]
    return Reply(title=t(inv.locale, "topics.title"), body="\n".join(lines))


async def _next_for(ctx: Context, inv: Invocation) -> Question:
    """The question the asker should see next among those the filters allow: one they have
    not seen, else one due for review, else the one seen longest ago (`bot.store.seen`)."""
    kind, topic, difficulty = kind_of(inv), await topic_of(ctx, inv), difficulty_of(inv)
    found = await _pick(ctx, inv, kind=kind, topic=topic, difficulty=difficulty)
    if found is None:
        filters = ", ".join(f"{k}:{v}" for k, v in inv.options.items())
        raise NotFound(t(inv.locale, "error.no_match", filters=filters))
    return found


async def _pick(
    ctx: Context,
    inv: Invocation,
    *,
    kind: Kind | None = None,
    topic: str | None = None,
    difficulty: Difficulty | None = None,
) -> Question | None:
    picked = await ctx.seen.pick(
        inv.user,
        ctx.rng,
        ctx.clock.now(),
        kind=kind,
        topic=topic,
        difficulty=difficulty,
        server=inv.channel.server,
    )
    return await ctx.store.get(picked, server=inv.channel.server) if picked is not None else None


async def get_or_suggest(ctx: Context, inv: Invocation, qid: str) -> Question:
    """The question with id `qid`; if there is none, a NotFound that names the nearest ones."""
    key, server = qid.strip().lower(), inv.channel.server
    found = await ctx.store.get(key, server=server)
    if found is not None:
        return found
    topic = slug_for(qid)
    if await ctx.store.topic_exists(topic, server):
        found = await _pick(ctx, inv, topic=topic)
        if found is not None:  # `/question gpu`: a topic where an id was expected
            return found
    if await ctx.store.get(key, drafts=True, server=server) is not None:
        raise NotFound(t(inv.locale, "error.draft", id=key))
    raise NotFound(t(inv.locale, "error.not_found", id=qid), await _nearest(ctx, qid, server))


async def _nearest(ctx: Context, text: str, server: str, limit: int = 3) -> tuple[str, ...]:
    ids = await ctx.store.ids(server)
    # Fuzzy matching against every id is CPU work that grows with the bank: off the loop.
    close = await asyncio.to_thread(difflib.get_close_matches, text.lower(), ids, limit, 0.5)
    hits = [h.question_id for h in await ctx.store.search(text, limit, server=server)]
    return tuple(dict.fromkeys([*close, *hits]))[:limit]


def kind_of(inv: Invocation) -> Kind | None:
    raw = inv.options.get("kind")
    return Kind(raw.lower()) if raw else None  # a valid choice: the core checked it


def difficulty_of(inv: Invocation) -> Difficulty | None:
    raw = inv.options.get("difficulty")
    return Difficulty(raw) if raw else None  # a valid choice: the core checked it


async def topic_of(ctx: Context, inv: Invocation) -> str | None:
    """The `topic:` option as a slug (any of its names works), or a BadArgument listing the
    topics there are."""
    raw = inv.options.get("topic")
    if raw is None:
        return None
    topic = slug_for(raw)
    if not await ctx.store.topic_exists(topic, inv.channel.server):
        names = ", ".join(f"`{c.topic}`" for c in await ctx.store.topics(inv.channel.server))
        raise BadArgument(t(inv.locale, "error.bad_topic", topic=raw, topics=names))
    return topic


def _topic_line(locale: Locale, topic: str, count: int) -> str:
    name = chinese_name(topic) if locale is Locale.ZH else None
    return t(locale, "topics.line", topic=topic, name=f" {name}" if name else "", count=count)


def _lang(inv: Invocation) -> Locale:
    """The language to show content in: `lang:` if given (a valid choice), else the reader's."""
    raw = inv.options.get("lang")
    return Locale(raw.strip().lower()) if raw else inv.locale
