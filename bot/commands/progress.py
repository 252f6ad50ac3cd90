"""`/me`: a member's progress, as one private reply.

Their streak (current and longest, days frozen in it, whether today counts yet), points in
this workspace and everywhere, quizzes and reviews answered and right per topic, reviews due
now, and coding problems solved. Everything is read from the database, so it works where no
grading sandbox runs. `me_view` is the view with no option; Slack's App Home shows the same
reply (adapters/slack/home.py), as text only.

The reply carries a picture of the same progress, `card.png` (bot/charts): the calendar of
the last twelve weeks, the streaks, points and mastery per topic, with the calendar as
Unicode text for a place that shows no images.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import date

from bot.charts.model import ProgressCard
from bot.charts.read import bars, member_calendar
from bot.charts.text import calendar_text
from bot.commands.context import Context
from bot.commands.timezone import my_timezone
from bot.content.topics import chinese_name
from bot.i18n import t
from bot.learning.streaks import Streak
from bot.store.activity import TopicRecord
from bot.store.submissions import Progress
from bot.types import Attachment, Field, Invocation, Locale, Reply

log = logging.getLogger(__name__)

TOPICS_SHOWN = 10  # the most practised topics; the rest would crowd the reply
CARD_NAME = "card.png"


@dataclass(frozen=True, slots=True)
class Standing:
    """Everything `/me` shows, read at one instant."""

    streak: Streak
    longest: int
    points_here: int
    points_all: int
    topics: tuple[TopicRecord, ...]
    due: int
    problems: Progress
    zone: str = "UTC"  # where the member's days are counted


async def me(ctx: Context, inv: Invocation) -> Reply:
    """`/me`: the asker's progress; `/me timezone:<zone>` sets the zone their days count in."""
    if inv.options.get("timezone", "").strip():
        return await my_timezone(ctx, inv)
    return await me_view(ctx, inv)


async def me_view(ctx: Context, inv: Invocation) -> Reply:
    """The asker's progress (the reply to `/me` with no option), with its card."""
    mine = await standing(ctx, inv)
    reply = progress_reply(mine, inv.locale)
    if ctx.painter is None:
        return reply
    try:
        card = await progress_card(ctx, inv, mine)
    except Exception:  # the text says it all: a card that cannot be drawn is left out
        log.exception("/me: the progress card of %s could not be drawn", inv.user.id)
        return reply
    return replace(reply, attachments=(card,))


async def progress_card(ctx: Context, inv: Invocation, s: Standing) -> Attachment:
    """The card as `card.png`, its calendar as text beside it."""
    assert ctx.painter is not None
    user = inv.user
    today = await ctx.ledger.today(user, ctx.clock.now(), inv.channel)
    calendar = await member_calendar(ctx.ledger.activity, user, today)
    card = ProgressCard(inv.locale, user.display_name, calendar, s.streak.days, s.longest,
                        s.points_all, bars(s.topics))  # fmt: skip
    png = await ctx.painter.card(f"{user.platform}:{user.id}", card)
    return Attachment(CARD_NAME, png, "image/png", calendar_text(calendar, inv.locale))


async def standing(ctx: Context, inv: Invocation) -> Standing:
    user, now = inv.user, ctx.clock.now()
    streak, longest = await ctx.ledger.streak(user, now, inv.channel)
    activity = ctx.ledger.activity
    return Standing(
        streak, longest, await activity.points(user, inv.channel.workspace or ""),
        await activity.points(user), tuple(await activity.by_topic(user)),
        await ctx.progress.due(user, now), await ctx.progress.problems(user),
        (await ctx.ledger.zone(user, inv.channel)).key,
    )  # fmt: skip


def progress_reply(s: Standing, locale: Locale) -> Reply:
    none = t(locale, "me.none")
    solved, attempted = s.problems.solved, s.problems.attempted
    points = t(locale, "me.points_value", here=s.points_here, all=s.points_all)
    fields = (
        Field(t(locale, "me.points"), points),
        Field(t(locale, "me.due"), t(locale, "me.due_value", count=s.due)),
        Field(t(locale, "me.zone"), t(locale, "me.zone_value", zone=s.zone)),
        Field(t(locale, "me.topics"), _topics(s.topics, locale) or none, inline=False),
        Field(t(locale, "me.solved"), ", ".join(f"`{p}`" for p in solved) or none),
        Field(t(locale, "me.attempted"), ", ".join(f"`{p}`" for p in attempted) or none),
        Field(t(locale, "me.submissions"), _sent(s.problems, locale)),
    )
    body = "\n".join([_streak(s.streak, s.longest, locale), "", t(locale, "me.hint")])
    return Reply(title=t(locale, "me.title"), body=body, fields=fields, ephemeral=True)


def _streak(streak: Streak, longest: int, locale: Locale) -> str:
    if not streak.alive:
        return t(locale, "me.streak_none", longest=longest)
    lines = [t(locale, "me.streak", days=streak.days, longest=longest)]
    if streak.frozen:
        days = ", ".join(_day(d) for d in sorted(streak.frozen))
        lines.append(t(locale, "me.frozen", days=days))
    lines.append(t(locale, "me.today_done" if streak.today else "me.today_open"))
    return "\n".join(lines)


def _sent(p: Progress, locale: Locale) -> str:
    return t(locale, "me.submissions_value", solutions=p.submissions, runs=p.runs)


def _topics(records: tuple[TopicRecord, ...], locale: Locale) -> str:
    return "\n".join(t(locale, "me.topic_line", topic=_topic_name(r.topic, locale), right=r.right,
                       answered=r.answered) for r in records[:TOPICS_SHOWN])  # fmt: skip


def _topic_name(slug: str, locale: Locale) -> str:
    """A topic as the reader names it: its Chinese name in Chinese, else its slug."""
    return (chinese_name(slug) or slug) if locale is Locale.ZH else slug


def _day(day: date) -> str:
    return day.isoformat()
