"""What a channel did in a week: its top members, quick checks answered and right,
problems solved, and the longest streaks among those who took part.

Streaks are read as of the end of the week (the Monday the summary goes out, which is not
over yet, so a run that reached Sunday still counts). The members' days are read in one
query, so a summary costs a few queries however many members a channel has.
"""

from __future__ import annotations

from dataclasses import dataclass
from zoneinfo import ZoneInfo

from bot.learning.periods import Span
from bot.learning.streaks import current
from bot.store.boards import BoardStore, Scope, Standing, Totals
from bot.types import ChannelRef

TOP = 5
STREAKS = 3


@dataclass(frozen=True, slots=True)
class WeekSummary:
    top: tuple[Standing, ...]
    totals: Totals
    streaks: tuple[tuple[str, int], ...]  # (name, days), longest first

    @property
    def quiet(self) -> bool:
        return not (self.totals.answered or self.totals.solved)


async def summarize(boards: BoardStore, channel: ChannelRef, span: Span,
                    zone: ZoneInfo) -> WeekSummary:  # fmt: skip
    """The week `span` (both ends set) in `channel`, whose days are counted in `zone`."""
    assert span.start is not None and span.end is not None
    scope = Scope(channel.platform, channel.workspace or "", channel.channel, span.start,
                  span.end)  # fmt: skip
    totals = await boards.totals(scope)
    top = await boards.standings(scope, asker="", top=TOP)
    days = await boards.days(channel.platform, totals.members)
    end = span.end.astimezone(zone).date()
    runs = sorted(((current(days[m], end).days, name) for m, name in totals.members.items()),
                  key=lambda run: (-run[0], run[1]))  # fmt: skip
    streaks = tuple((name, n) for n, name in runs[:STREAKS] if n > 0)
    return WeekSummary(tuple(top), totals, streaks)
