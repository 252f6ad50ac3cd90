"""Recording what members do, on the right local day, and reading their streaks back.

A member's day is their own time zone's (`/me timezone`); without one, the zone of the
channel schedule where they acted; without that, UTC. The day is fixed when the act is
recorded: changing zone later does not rewrite past streaks.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from bot.learning.streaks import Streak, current, longest
from bot.schedule.times import parse_zone
from bot.store.activity import Act, ActivityStore, ActKind
from bot.store.preferences import Preferences
from bot.store.schedules import ScheduleStore
from bot.types import ChannelRef, User


class Ledger:
    def __init__(self, activity: ActivityStore, prefs: Preferences,
                 schedules: ScheduleStore) -> None:  # fmt: skip
        self.activity = activity
        self.prefs = prefs
        self._schedules = schedules

    async def zone(self, user: User, channel: ChannelRef | None = None) -> ZoneInfo:
        """The time zone `user`'s days are counted in (see the module docstring)."""
        mine = (await self.prefs.member(user)).timezone
        if mine:
            try:
                return parse_zone(mine)
            except ValueError:  # a zone the database no longer has: fall through
                pass
        if channel is not None and (schedule := await self._schedules.for_channel(channel)):
            return schedule.zone
        return ZoneInfo("UTC")

    async def today(self, user: User, now: datetime, channel: ChannelRef | None = None) -> date:
        return now.astimezone(await self.zone(user, channel)).date()

    async def record(self, kind: ActKind, user: User, channel: ChannelRef, question_id: str,
                     *, correct: bool, points: int, at: datetime, dedupe: str,
                     hinted: bool = False) -> bool:  # fmt: skip
        """Record one act on the member's local day; False if it was recorded already."""
        day = at.astimezone(await self.zone(user, channel)).date()
        act = Act(kind, user, channel, question_id, correct, points, at.astimezone(UTC), day,
                  dedupe, hinted)  # fmt: skip
        return await self.activity.record(act)

    async def reviewed(self, user: User, channel: ChannelRef, question_id: str, *,
                       correct: bool, at: datetime, reviews_before: int) -> bool:  # fmt: skip
        """A review (a rating, or a quick check of `/review`): no points, but a day of
        practice. The card's review count names the act, as it names the review."""
        key = f"review:{user.platform}:{user.id}:{question_id}:{reviews_before}"
        return await self.record(ActKind.REVIEW, user, channel, question_id, correct=correct,
                                 points=0, at=at, dedupe=key)  # fmt: skip

    async def streak(self, user: User, now: datetime,
                     channel: ChannelRef | None = None) -> tuple[Streak, int]:  # fmt: skip
        """The current streak and the longest one."""
        days = await self.activity.days(user)
        return current(days, await self.today(user, now, channel)), longest(days)
