"""`/schedule set|show|pause|resume|remove` and `/daily now`: a channel's daily question.

Who may change a schedule is the adapter's to say (`User.is_admin`: Manage Server on
Discord, workspace admins on Slack) and the core's to enforce, here. Every value is checked
before anything is saved, so a bad command changes nothing.

`/schedule set` on a channel that has a schedule changes only the options it names and keeps
the rest (time, zone, days, coding days, topic, answer, summary, language), and its reply
lists what it kept: an admin moving the post time does not lose the days. `topic:any` lifts
a topic filter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, time
from typing import TypeVar
from zoneinfo import ZoneInfo

from bot.commands.context import Context
from bot.commands.spec import BOTH
from bot.content.topics import slug_for
from bot.errors import BadArgument, NotFound, UserError
from bot.i18n import CATALOG, t
from bot.schedule.model import AnswerTiming, Schedule, format_days, parse_days
from bot.schedule.times import parse_local_time, parse_zone
from bot.scheduler import NowOutcome
from bot.types import Field, Invocation, Kind, Locale, Reply

NEXT_POSTS = 5
# What `/schedule set` keeps of an existing schedule when the command leaves it out.
KEPT = ("time", "timezone", "days", "coding", "topic", "answer", "summary", "lang")
ANY_TOPIC = ("any", "all", "全部", "任意")  # `topic:any`: no topic filter
T = TypeVar("T")


async def schedule(ctx: Context, inv: Invocation) -> Reply:
    action = inv.options["action"].lower()
    if action == "show":
        return await _show(ctx, inv)
    _require_admin(inv)
    if action == "set":
        return await _set(ctx, inv)
    current = await _existing(ctx, inv, action)
    if action == "remove":
        await ctx.schedules.remove(current.id)
        message = "schedule.removed"
    elif current.paused is (action == "pause"):  # already so: say it, change nothing
        already = "schedule.already_paused" if current.paused else "schedule.already_active"
        return Reply(body=t(inv.locale, already), ephemeral=True)
    else:
        await ctx.schedules.set_paused(current.id, action == "pause")
        message = "schedule.paused_now" if action == "pause" else "schedule.resumed"
    await ctx.scheduler.schedule_changed(current.id)
    return Reply(body=t(inv.locale, message))


async def daily(ctx: Context, inv: Invocation) -> Reply:
    _require_admin(inv)
    current = await _existing(ctx, inv, "now")
    outcome = await ctx.scheduler.post_now(current)
    if outcome is NowOutcome.POSTED:
        return Reply(body=t(inv.locale, "schedule.posted"), ephemeral=True)
    if outcome is not NowOutcome.PAUSED:
        platform = current.channel.platform.capitalize()
        raise UserError(t(inv.locale, f"schedule.{outcome.value}", platform=platform))
    refreshed = await ctx.schedules.get(current.id)
    reason = refreshed.pause_reason if refreshed and refreshed.pause_reason else None
    raise UserError(t(inv.locale, "schedule.not_posted",
                      reason=reason or t(inv.locale, "schedule.paused_by_admin")))  # fmt: skip


async def _set(ctx: Context, inv: Invocation) -> Reply:
    """A new schedule needs a time and a zone; changing one keeps every option not given."""
    current = await ctx.schedules.for_channel(inv.channel)
    o = inv.options
    if current is None and not (o.get("time") and o.get("timezone")):
        raise BadArgument(t(inv.locale, "error.needs_time"))
    base = current or _fresh(inv)
    days = _given(inv, "days", parse_days, base.days)
    coding = _given(inv, "coding", parse_days, base.coding_days)
    if not days | coding:
        raise BadArgument(t(inv.locale, "error.no_days"))
    topic = _topic(inv, base.topic)
    await _check_topic(ctx, inv, topic, Kind.QA if days - coding else None)
    draft = replace(
        base, days=days, coding_days=coding, topic=topic,
        post_at=_given(inv, "time", parse_local_time, base.post_at),
        zone=_given(inv, "timezone", parse_zone, base.zone),
        answer=_given(inv, "answer", AnswerTiming.parse, base.answer),
        weekly_summary=o["summary"] == "weekly" if o.get("summary") else base.weekly_summary,
    )  # fmt: skip
    draft = _languages(draft, o.get("lang"))
    saved = await ctx.schedules.save(draft)
    await ctx.scheduler.schedule_changed(saved.id)
    kept = [name for name in KEPT if not o.get(name)] if current is not None else []
    notes = [t(inv.locale, "schedule.note.kept", options=", ".join(kept))] if kept else []
    headline = "\n".join([t(inv.locale, "schedule.saved"), *_notes(saved, inv.locale), *notes])
    return _describe(saved, inv, ctx.clock.now(), headline)


def _fresh(inv: Invocation) -> Schedule:
    """A new schedule's defaults: every day, no coding day, any topic, the answer 8 hours
    later, no summary, in the server's preferred language where the platform tells one (a
    channel speaks to all its members, so not whichever admin happened to set it up), else
    the admin's (time and zone are always given for one)."""
    return Schedule(id=0, channel=inv.channel, post_at=time(9), zone=ZoneInfo("UTC"),
                    days=parse_days("daily"), coding_days=frozenset(), answer=AnswerTiming(),
                    locale=inv.server_locale or inv.locale)  # fmt: skip


def _languages(s: Schedule, lang: str | None) -> Schedule:
    """`lang:en` or `lang:zh` posts in that language alone; `lang:both` adds the other one
    to the language the posts already speak; left out, as it was."""
    if not lang:
        return s
    if lang == BOTH:
        return replace(s, bilingual=True)
    return replace(s, locale=Locale(lang), bilingual=False)  # a valid choice


def _given(inv: Invocation, option: str, parse: Callable[[str], T], kept: T) -> T:
    raw = inv.options.get(option)
    return _parsed(inv, option, parse, raw) if raw else kept


def _topic(inv: Invocation, kept: str | None) -> str | None:
    """`topic:` as a slug (分布式 as distributed); `topic:any` clears it; left out, as it was."""
    raw = inv.options.get("topic")
    if not raw:
        return kept
    return None if raw.strip().lower() in ANY_TOPIC else slug_for(raw)


def _notes(s: Schedule, locale: Locale) -> list[str]:
    """What a schedule does that its options did not say outright."""
    notes = []
    if extra := s.coding_days - s.days:
        notes.append(t(locale, "schedule.note.coding_adds", days=_days(extra, locale)))
    if s.answer.at is not None and s.answer.at <= s.post_at:
        notes.append(t(locale, "schedule.note.answer_next_day", at=str(s.answer)))
    return notes


async def _show(ctx: Context, inv: Invocation) -> Reply:
    current = await ctx.schedules.for_channel(inv.channel)
    if current is None:
        return Reply(title=t(inv.locale, "schedule.title"), body=t(inv.locale, "schedule.none"))
    return _describe(current, inv, ctx.clock.now(), "")


def _describe(s: Schedule, inv: Invocation, now: datetime, headline: str) -> Reply:
    loc = inv.locale
    if not s.paused:
        status = t(loc, "schedule.active")
    else:
        reason = s.pause_reason or t(loc, "schedule.paused_by_admin")
        status = t(loc, "schedule.paused", reason=reason)
    fields = (
        Field(t(loc, "schedule.label.time"), f"{s.post_at:%H:%M} {s.zone.key}"),
        Field(t(loc, "schedule.label.days"), _days(s.days | s.coding_days, loc)),
        Field(t(loc, "schedule.label.coding"), _days(s.coding_days, loc)),
        Field(t(loc, "schedule.label.topic"), s.topic or t(loc, "schedule.any_topic")),
        Field(t(loc, "schedule.label.answer"), str(s.answer)),
        Field(
            t(loc, "schedule.label.summary"),
            t(loc, f"schedule.summary.{'weekly' if s.weekly_summary else 'off'}"),
        ),
        Field(t(loc, "schedule.label.lang"), _language_names(s)),
        Field(t(loc, "schedule.label.status"), status, inline=False),
    )
    upcoming = [] if s.paused else s.slot.next_after(now, NEXT_POSTS)
    lines = [f"- {_local(instant, s, loc)}" for instant in upcoming]
    body = "\n".join(filter(None, [headline, f"**{t(loc, 'schedule.next')}**" if lines else "",
                                   *lines]))  # fmt: skip
    return Reply(title=t(loc, "schedule.title"), body=body, fields=fields)


def _language_names(s: Schedule) -> str:
    """The posts' languages, each named in itself (中文 + English)."""
    names = [t(s.locale, f"action.lang.{s.locale.value}")]
    if s.bilingual:
        names.append(t(s.locale, f"action.lang.{s.locale.other().value}"))
    return " + ".join(names)


def _days(days: frozenset[int], locale: Locale) -> str:
    """Days as the reader's language names them (English shows the words one types)."""
    typed = format_days(days)
    if locale is Locale.EN:
        return typed
    if "," not in typed and f"days.{typed}" in CATALOG:
        return t(locale, f"days.{typed}")
    names = t(locale, "weekdays").split()
    return "、".join(names[d] for d in sorted(days))


def _local(instant: datetime, s: Schedule, locale: Locale) -> str:
    local = instant.astimezone(s.zone)
    day = t(locale, "weekdays").split()[local.weekday()]
    kind = t(locale, "schedule.coding_mark") if s.kind_on(instant) is Kind.CODING else ""
    return f"{day} {local:%Y-%m-%d %H:%M %Z}{kind}"


def _require_admin(inv: Invocation) -> None:
    if not inv.user.is_admin:
        raise UserError(t(inv.locale, "error.not_admin"))


async def _existing(ctx: Context, inv: Invocation, action: str) -> Schedule:
    current = await ctx.schedules.for_channel(inv.channel)
    if current is None:
        raise NotFound(t(inv.locale, f"error.no_schedule.{action}"))
    return current


async def _check_topic(ctx: Context, inv: Invocation, topic: str | None, kind: Kind | None) -> None:
    """A topic filter must leave something to post (explained questions, if any day needs one;
    coding days fall back to them)."""
    if topic is not None and not await ctx.store.ids_matching(
        kind=kind, topic=topic, server=inv.channel.server
    ):
        names = ", ".join(f"`{c.topic}`" for c in await ctx.store.topics(inv.channel.server))
        raise BadArgument(t(inv.locale, "error.empty_filter", topic=topic, topics=names))


def _parsed(inv: Invocation, option: str, parse: Callable[[str], T], raw: str) -> T:
    try:
        return parse(raw)
    except ValueError:  # the parser's words are English: the reader's language instead
        value = raw if len(raw) <= 60 else raw[:57] + "..."
        offset = option == "time" and raw.startswith(("+", "-"))  # -01:00: a UTC offset
        key = "error.bad.time_offset" if offset else f"error.bad.{option}"
        raise BadArgument(t(inv.locale, key, value=value)) from None
