"""When a card is next due, said the way a member plans: by their own calendar day.

"Later today at 18:00", "tomorrow, Tue 6 Jan", "in 3 days, on Thu 8 Jan": the days are
counted between local dates in the member's time zone (their `/me timezone`, else UTC), not
in 24-hour blocks, so a card due at 08:00 tomorrow is "tomorrow" at 23:00 tonight.
"""

from __future__ import annotations

from datetime import datetime, tzinfo

from bot.i18n import t
from bot.types import Locale


def next_review(due: datetime, now: datetime, zone: tzinfo, locale: Locale) -> str:
    """The phrase for a card due at `due`, seen at `now` (both aware)."""
    local = due.astimezone(zone)
    days = (local.date() - now.astimezone(zone).date()).days
    if due <= now:
        return t(locale, "review.when.now")
    if days <= 0:
        return t(locale, "review.when.today", time=local.strftime("%H:%M"))
    key = "review.when.tomorrow" if days == 1 else "review.when.days"
    return t(locale, key, days=days, date=day_label(local, locale))


def day_label(day: datetime, locale: Locale) -> str:
    """`Fri 5 Dec` / `12月5日 周五`."""
    weekday = t(locale, "weekdays").split()[day.weekday()]
    month = t(locale, "months").split()[day.month - 1]
    return t(locale, "review.date", weekday=weekday, day=day.day, month=month)
