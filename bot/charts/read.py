"""Reading a picture's values from the ledger, in the member's (or the channel's) time zone.

A member's days are the local dates the ledger stored with each act, so the calendar needs
no zone but today's: the day it ends on is today where the member's streak counts.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.charts.model import TOPICS, Calendar, Day, DayBar, TopicBar, WeekChart, monday
from bot.learning.streaks import frozen_days
from bot.store.activity import ActivityStore, TopicRecord
from bot.types import ChannelRef, Locale, User


def calendar(counts: dict[date, int], frozen: frozenset[date], today: date) -> Calendar:
    """The calendar ending with today's week, from each day's count and the frozen days."""
    first = Calendar(today, ()).first
    span = (today - first).days + 1
    days = [first + timedelta(days=n) for n in range(span)]
    return Calendar(today, tuple(Day(d, counts.get(d, 0), d in frozen) for d in days))


async def member_calendar(activity: ActivityStore, user: User, today: date) -> Calendar:
    """The member's calendar ending today (their today: the date in their streak's zone)."""
    practised = await activity.days(user)  # every day: a freeze depends on the run before
    counts = await activity.per_day(user, Calendar(today, ()).first)
    return calendar(counts, frozen_days(practised, today), today)


def bars(records: tuple[TopicRecord, ...]) -> tuple[TopicBar, ...]:
    return tuple(TopicBar(r.topic, r.right, r.answered) for r in records[:TOPICS])


async def week_chart(activity: ActivityStore, channel: ChannelRef, span: tuple[datetime, datetime],
                     zone: ZoneInfo, locale: Locale) -> WeekChart:  # fmt: skip
    """The channel's quick checks per local day of the week `span` (local Monday to Monday)."""
    first = monday(span[0].astimezone(zone).date())
    answers = await activity.in_channel(channel, *span)
    right, wrong = [0] * 7, [0] * 7
    for at, correct in answers:
        n = (at.astimezone(zone).date() - first).days
        if 0 <= n < 7:
            (right if correct else wrong)[n] += 1
    days = tuple(DayBar(first + timedelta(days=n), right[n], wrong[n]) for n in range(7))
    return WeekChart(locale, days)
