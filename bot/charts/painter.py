"""Drawing pictures off the event loop, and keeping what was drawn.

A card takes a few milliseconds of CPU to draw: it is drawn in a worker thread
(`asyncio.to_thread`), so the loop keeps answering meanwhile. What is drawn is kept in a small
LRU cache keyed by whose picture it is, the day, and the digest of its values: a second `/me`
the same day with nothing new is not drawn again, and anything that changes the picture (a
quiz answered) changes the digest. Pillow is imported by the first drawing, never before.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from datetime import date
from typing import TypeVar

from bot.charts.model import ProgressCard, WeekChart

KEEP = 256  # pictures kept: a day's cards of an active server, each about 10 KB

Key = tuple[str, date, str]
V = TypeVar("V")


class Painter:
    def __init__(self, keep: int = KEEP) -> None:
        self._kept: OrderedDict[Key, bytes] = OrderedDict()
        self._keep = keep
        self.drawn = 0  # pictures drawn (not served from the cache), for tests and benchmarks

    async def card(self, whose: str, card: ProgressCard) -> bytes:
        """`card` as PNG bytes; `whose` names the member (platform and id)."""
        key = (whose, card.calendar.today, card.digest())
        return await self._picture(key, _card_png, card)

    async def week(self, whose: str, chart: WeekChart) -> bytes:
        """A channel's week as PNG bytes; `whose` names the channel."""
        key = (whose, chart.days[0].day, chart.digest())
        return await self._picture(key, _week_png, chart)

    async def _picture(self, key: Key, drawing: Callable[[V], bytes], value: V) -> bytes:
        if (kept := self._kept.get(key)) is not None:
            self._kept.move_to_end(key)
            return kept
        png = await asyncio.to_thread(drawing, value)
        self.drawn += 1
        self._kept[key] = png
        while len(self._kept) > self._keep:
            self._kept.popitem(last=False)
        return png


# In the worker thread: the first drawing imports the drawing module, and Pillow with it.


def _card_png(card: ProgressCard) -> bytes:
    from bot.charts import draw

    return draw.card_png(card)


def _week_png(chart: WeekChart) -> bytes:
    from bot.charts import draw

    return draw.week_png(chart)
