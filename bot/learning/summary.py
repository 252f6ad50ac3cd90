"""What a channel did in a week: its top members, quick checks answered and right,
problems solved, and the longest streaks among those who took part.

Streaks are read as of the end of the week (the Monday the summary goes out, which is not
over yet, so a run that reached Sunday still counts). The week's acts are read once per
workspace for every channel due (`bot/scheduler/summary.py`), the members' days in one
query per channel, so a summary costs two queries however many members a channel has.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from bot.learning.streaks import current
from bot.store.boards import BoardStore, MemberWeek, Standing, Totals
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


async def summarize(boards: BoardStore, channel: ChannelRef, week: list[MemberWeek],
                    end: date) -> WeekSummary:  # fmt: skip
    """The week of `channel` from its members' acts in it (`BoardStore.by_channel`), with
    streaks as of `end` (the local date the summary goes out)."""
    scored = sorted((m for m in week if m.points > 0),
                    key=lambda m: (-m.points, m.reached, m.user_id))  # fmt: skip
    top = tuple(Standing(i, m.user_id, m.name, m.points) for i, m in enumerate(scored[:TOP], 1))
    totals = Totals(sum(m.answered for m in week), sum(m.right for m in week),
                    sum(m.solved for m in week), {m.user_id: m.name for m in week})  # fmt: skip
    days = await boards.days(channel.platform, totals.members)
    runs = sorted(((current(days[m], end).days, name) for m, name in totals.members.items()),
                  key=lambda run: (-run[0], run[1]))  # fmt: skip
    streaks = tuple((name, n) for n, name in runs[:STREAKS] if n > 0)
    return WeekSummary(top, totals, streaks)
