"""The chart a weekly summary carries: the channel's quick checks per day, right and wrong."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from bot.charts.painter import Painter
from bot.charts.read import week_chart
from bot.charts.text import week_text
from bot.store.activity import ActivityStore
from bot.types import Attachment, ChannelRef, Locale

CHART_NAME = "week.png"


class WeekCharts:
    def __init__(self, activity: ActivityStore, painter: Painter) -> None:
        self._activity, self._painter = activity, painter

    async def attachment(self, channel: ChannelRef, span: tuple[datetime, datetime],
                         zone: ZoneInfo, locale: Locale) -> Attachment:  # fmt: skip
        chart = await week_chart(self._activity, channel, span, zone, locale)
        whose = f"{channel.platform}:{channel.workspace}:{channel.channel}"
        png = await self._painter.week(whose, chart)
        return Attachment(CHART_NAME, png, "image/png", week_text(chart))
