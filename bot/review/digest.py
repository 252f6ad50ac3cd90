"""The opt-in morning digest: each member who asked (`/review digest:on`) gets a direct
message listing the reviews due today, once per local day, at `DIGEST_HOUR` in their own time
zone (their `/me timezone`, else UTC).

The loop wakes every quarter of an hour on the injected clock (zones are offset from UTC by
whole, half or three-quarter hours, so every zone's 08:00 is a wake-up) and looks at every
opted-in member of every attached platform. A member whose local hour has reached
`DIGEST_HOUR` and whose `digest_day` is not today is due: their cards due before their local
midnight are listed (nothing due, nothing sent), and today is recorded. So a bot that was
down at 08:00 sends the morning's digest when it comes back, and never a second one the
same day. A refusal (a member who accepts no direct messages) is logged and the day still
recorded, rather than retried every quarter of an hour all day; a crash between the send
and the record can repeat one digest, never lose one.

The member's language is not stored, so the digest speaks both, English first.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo

from bot.errors import DeliveryError
from bot.i18n import t
from bot.platforms import Platforms
from bot.ports import ChatAdapter, Clock
from bot.store.cards import CardStore, Due
from bot.store.preferences import MemberPrefs, Preferences
from bot.types import Locale, Reply, User

log = logging.getLogger(__name__)

DIGEST_HOUR = 8  # local hour the digest goes out, in the member's time zone
LISTED = 10  # question ids named in one digest; the rest are counted
WAKE_EVERY = timedelta(minutes=15)


class Digest:
    def __init__(self, prefs: Preferences, cards: CardStore, platforms: Platforms,
                 clock: Clock) -> None:  # fmt: skip
        self._prefs, self._cards, self._platforms, self._clock = prefs, cards, platforms, clock
        self._stopping = False

    async def run(self) -> None:
        """Send what is due, then sleep to the next quarter hour, until `stop`."""
        while not self._stopping:
            await self.tick()
            await self._clock.sleep_until(next_wake(self._clock.now()))

    def stop(self) -> None:
        self._stopping = True

    async def tick(self) -> int:
        """One pass over every opted-in member; how many digests were sent."""
        sent = 0
        for platform in sorted(self._platforms.names):
            for user_id, prefs in await self._prefs.digest_members(platform):
                adapter = self._platforms.get(platform)
                if adapter is not None:  # (it may detach while we go)
                    sent += await self._member(adapter, User(platform, user_id, ""), prefs)
        return sent

    async def _member(self, adapter: ChatAdapter, user: User, prefs: MemberPrefs) -> int:
        zone: tzinfo = ZoneInfo(prefs.timezone) if prefs.timezone else UTC
        local = self._clock.now().astimezone(zone)
        today = local.date().isoformat()
        if local.hour < DIGEST_HOUR or prefs.digest_day == today:
            return 0
        midnight = datetime.combine(local.date() + timedelta(days=1), time(), zone)
        due = await self._cards.due(user, midnight, limit=LISTED + 1, shared_only=True)
        sent = 0
        if due:
            try:
                await adapter.send_direct(user, digest_reply(due))
                sent = 1
            except DeliveryError as exc:
                log.warning("digest to %s:%s not delivered: %s", user.platform, user.id, exc)
        await self._prefs.set_digest_day(user, today)
        return sent


def digest_reply(due: list[Due]) -> Reply:
    """The digest in both languages: how many are due and which (the first `LISTED`)."""
    ids = ", ".join(f"`{d.question_id}`" for d in due[:LISTED])
    count = f"{LISTED}+" if len(due) > LISTED else str(len(due))
    title = " · ".join(t(locale, "review.digest_title") for locale in Locale)
    body = "\n\n".join(t(locale, "review.digest_body", count=count, items=ids)
                       for locale in Locale)  # fmt: skip
    return Reply(body, title=title)


def next_wake(now: datetime) -> datetime:
    """The next quarter hour after `now`."""
    quarter = now.replace(minute=now.minute - now.minute % 15, second=0, microsecond=0)
    return quarter + WAKE_EVERY
