"""The weekly summary post of a channel that asked for one (`/schedule set … summary:weekly`).

It is a job of the plan like the daily question: due Mondays at the schedule's post time,
in its zone, and it summarises the ISO week that just ended there. Exactly once: the
(schedule, week) row of `summary_posts` is claimed before anything is sent, so a restart,
a second tick or a replanned job finds it taken. A send that fails is logged and marked,
not retried (the week after has its own summary). The claim is leased: a process that dies
between claim and send stops renewing it, and a live one takes it over within the grace
period and sends it with the same nonce.

A week with answers carries a chart of it (`week.png`: quick checks per day, right and
wrong; bot/charts/weekly.py); a chart that cannot be drawn leaves the summary as text.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import replace
from datetime import datetime, timedelta

from bot.charts.weekly import WeekCharts
from bot.i18n import t
from bot.learning.periods import Span, week_before
from bot.learning.summary import WeekSummary, summarize
from bot.platforms import Platforms
from bot.ports import Clock
from bot.schedule.model import Schedule
from bot.store.boards import BoardStore, MemberWeek, Scope
from bot.store.schedules import Lease
from bot.store.summaries import SummaryStore
from bot.types import Locale, Reply

log = logging.getLogger(__name__)


Weeks = dict[str, list[MemberWeek]]
KEEP = timedelta(minutes=5)  # how long a workspace's week, once read, serves other channels


class Summaries:
    def __init__(self, store: SummaryStore, boards: BoardStore, platforms: Platforms,
                 clock: Clock, charts: WeekCharts | None = None) -> None:  # fmt: skip
        self._store, self._boards, self._charts = store, boards, charts
        self._platforms, self._clock = platforms, clock
        # A past week does not change: the summaries due in one minute (a thousand channels
        # of one server, say) share one read of it, kept for a few minutes.
        self._weeks: dict[Scope, tuple[datetime, asyncio.Task[Weeks]]] = {}

    async def post(self, schedule: Schedule, due: datetime, lease: Lease | None = None) -> bool:
        """Send the summary of the week before `due`, unless it was claimed already; the
        claim is held by `lease` (renewed by the scheduler's heartbeat, see `renew`)."""
        if self._platforms.get(schedule.channel.platform) is None:
            return False
        _, week = week_before(due, schedule.zone)
        if not await self._store.claim(schedule.id, week, due, lease):
            return False
        return await self.send(schedule, due)

    async def send(self, schedule: Schedule, due: datetime) -> bool:
        """Send a claimed summary (ours: just claimed, or taken over from a process that
        died), with the nonce of its week, so a platform that saw the first send drops it."""
        adapter = self._platforms.get(schedule.channel.platform)
        if adapter is None:
            return False
        span, week = week_before(due, schedule.zone)
        try:
            week_of = await self._week(schedule, span)
            end = span.end.astimezone(schedule.zone).date() if span.end else due.date()
            summary = await summarize(self._boards, schedule.channel,
                                      week_of.get(schedule.channel.channel, []), end)  # fmt: skip
            reply = await self._with_chart(summary_reply(summary, span, schedule), summary,
                                           span, schedule)  # fmt: skip
            ref = await adapter.send(schedule.channel, reply, nonce=_nonce(schedule.id, week))
        except Exception:
            log.exception("schedule %d: the summary of %s failed", schedule.id, week)
            await self._store.failed(schedule.id, week)
            return False
        await self._store.sent(schedule.id, week, ref.message_id, self._clock.now())
        return True

    async def _with_chart(self, reply: Reply, summary: WeekSummary, span: Span,
                          schedule: Schedule) -> Reply:  # fmt: skip
        if self._charts is None or summary.quiet or span.start is None or span.end is None:
            return reply
        try:
            chart = await self._charts.attachment(schedule.channel, (span.start, span.end),
                                                  schedule.zone, schedule.locale)  # fmt: skip
        except Exception:
            log.exception("schedule %d: the week's chart could not be drawn", schedule.id)
            return reply
        return replace(reply, attachments=(chart,))

    async def renew(self, lease: Lease, platforms: frozenset[str]) -> int:
        return await self._store.renew(lease, platforms)

    async def take_over(self, lease: Lease, since: datetime,
                        platforms: frozenset[str]) -> list[tuple[int, datetime]]:  # fmt: skip
        """The pending summaries on `platforms` due since `since` whose claimant stopped
        renewing: now held by `lease`, to `send`."""
        return await self._store.take_over(lease, self._clock.now(), since, platforms)

    async def _week(self, schedule: Schedule, span: Span) -> Weeks:
        """The week's acts of the schedule's workspace by channel, read once for all."""
        c, now = schedule.channel, self._clock.now()
        scope = Scope(c.platform, c.workspace or "", None, span.start, span.end)
        self._weeks = {k: v for k, v in self._weeks.items() if now - v[0] < KEEP}
        if scope not in self._weeks:
            read = asyncio.ensure_future(self._boards.by_channel(scope))
            self._weeks[scope] = (now, read)
        try:
            return await asyncio.shield(self._weeks[scope][1])
        except Exception:
            self._weeks.pop(scope, None)  # the next channel reads it again
            raise


def summary_reply(summary: WeekSummary, span: Span, schedule: Schedule) -> Reply:
    loc = schedule.locale
    assert span.start is not None and span.end is not None
    first = span.start.astimezone(schedule.zone).date()
    last = (span.end.astimezone(schedule.zone) - timedelta(days=1)).date()
    title = t(loc, "summary.title", start=first.isoformat(), end=last.isoformat())
    if summary.quiet:
        return Reply(t(loc, "summary.quiet"), title=title)
    return Reply("\n".join(_lines(summary, loc)), title=title)


def _lines(summary: WeekSummary, loc: Locale) -> list[str]:
    totals = summary.totals
    lines = [f"**{t(loc, 'summary.top')}**"]
    lines += [f"{s.rank}. {_name(s.name)}: {s.points}" for s in summary.top]
    lines += ["", t(loc, "summary.quizzes", answered=totals.answered, right=totals.right),
              t(loc, "summary.solved", count=totals.solved)]  # fmt: skip
    if summary.streaks:
        lines += ["", f"**{t(loc, 'summary.streaks')}**"]
        lines += [f"- {t(loc, 'summary.streak', name=_name(name), days=days)}"
                  for name, days in summary.streaks]  # fmt: skip
    return lines


def _name(shown: str) -> str:
    return shown.replace("`", "'").replace("*", "").strip() or "?"


def _nonce(schedule_id: int, week: str) -> str:
    """Stable per summary and at most 25 characters (Discord's limit for a nonce)."""
    return hashlib.sha256(f"{schedule_id}/summary/{week}".encode()).hexdigest()[:25]
