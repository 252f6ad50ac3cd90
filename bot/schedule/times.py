"""Local wall-clock times to UTC instants, correctly across time-zone changes.

A channel asks for its question at, say, 09:00 Asia/Shanghai on weekdays. Turning that into
instants is where bots go wrong, so the rules live here, in one place:

- Each post is computed from the local date and the local time in the channel's IANA zone
  (zoneinfo; the `tzdata` package supplies the database where the OS has none), never by
  adding 24 hours to the previous post.
- A local time that does not exist (the spring-forward gap) posts at the next valid
  instant: the moment the clocks jump, which is the first wall-clock time after the gap.
- A local time that happens twice (the fall-back fold) posts once, at its first occurrence.

Everything is pure: no clock is read here; callers pass the instant to start from.
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_HH_MM = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")
EVERY_DAY = frozenset(range(7))  # Monday = 0, as date.weekday()


@functools.lru_cache(maxsize=4096)  # schedules share a few hundred zones and times
def parse_local_time(text: str) -> time:
    """`HH:MM` in 24-hour form; raise ValueError with what is wrong."""
    match = _HH_MM.match(text.strip())
    if not match:
        raise ValueError(f"'{text}' is not a time of day as HH:MM (00:00 to 23:59)")
    return time(int(match[1]), int(match[2]))


# Files in the zone database that are not zones a channel lives in.
NOT_ZONES = frozenset({"Factory", "localtime", "posixrules"})


@functools.cache
def zone_names() -> frozenset[str]:
    """Every IANA zone name (the system's database, else the tzdata package's)."""
    return frozenset(zoneinfo.available_timezones()) - NOT_ZONES


@functools.lru_cache(maxsize=4096)
def parse_zone(name: str) -> ZoneInfo:
    """An IANA time zone such as Asia/Shanghai; raise ValueError if there is none by that name.

    Only names in the zone list count: `ZoneInfo` alone would take any file under the
    database's folder (`posixrules`, `right/UTC`) and raise other errors for a folder (`Asia`)
    or a name too long for the file system."""
    key = name.strip()
    shown = key if len(key) <= 60 else key[:57] + "..."
    if key not in zone_names():
        raise ValueError(f"'{shown}' is not an IANA time zone (e.g. Asia/Shanghai)")
    try:
        return ZoneInfo(key)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(f"'{shown}' is not an IANA time zone (e.g. Asia/Shanghai)") from None


def occurrence(day: date, at: time, zone: ZoneInfo) -> datetime:
    """The UTC instant of local `at` on `day` in `zone`, gaps and folds resolved as above."""
    first = datetime.combine(day, at, tzinfo=zone)  # fold=0: the earlier of a repeated time
    instant = first.astimezone(UTC)
    if instant.astimezone(zone).replace(tzinfo=None) == first.replace(tzinfo=None):
        return instant
    return _end_of_gap(first, zone)


def _end_of_gap(local: datetime, zone: ZoneInfo) -> datetime:
    """The instant the clocks jumped over `local`: the first valid time after it."""
    # fold=1 reads the wall time with the offset after the jump, fold=0 with the one before,
    # so the jump lies between the two readings; bisect to the second.
    low = local.replace(fold=1).astimezone(UTC)
    high = local.replace(fold=0).astimezone(UTC)
    low, high = min(low, high), max(low, high)
    after = high.astimezone(zone).utcoffset()  # the later reading is already past the jump
    while high - low > timedelta(seconds=1):
        middle = low + (high - low) / 2
        if middle.astimezone(zone).utcoffset() == after:
            high = middle
        else:
            low = middle
    return high.replace(microsecond=0)


@dataclass(frozen=True, slots=True)
class DailySlot:
    """A local time of day on some weekdays, in one zone."""

    at: time
    zone: ZoneInfo
    weekdays: frozenset[int] = EVERY_DAY

    def upcoming(self, after: datetime) -> Iterator[datetime]:
        """Every post instant strictly after `after`, in order (an endless iterator)."""
        if after.tzinfo is None:
            raise ValueError("`after` must be timezone-aware")
        day = after.astimezone(self.zone).date() - timedelta(days=1)
        while True:
            if day.weekday() in self.weekdays:
                instant = occurrence(day, self.at, self.zone)
                if instant > after:
                    yield instant
            day += timedelta(days=1)

    def next_after(self, after: datetime, count: int = 1) -> list[datetime]:
        if not self.weekdays:
            return []
        instants = self.upcoming(after)
        return [next(instants) for _ in range(count)]
