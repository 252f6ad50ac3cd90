"""Pacing a platform's requests under its rate limit, together across processes.

A platform limits what a bot sends: Discord about 50 requests a second for the whole bot,
however many processes it runs (and it bans an address that collects 10,000 refusals in ten
minutes); Slack about one message a second per channel. Answering a refusal after the fact
(a 429 and its `retry_after`, which the client libraries honour) is not enough when three
processes each post a busy minute: together they would send three times what is allowed,
and collect refusals by the thousand. So a request first takes a turn from a `Budget`:

- turns are evenly spaced, `1 / rate` seconds apart (no burst: the platform's window is not
  documented, so nothing assumes one), reserved in arrival order, so a busy minute becomes a
  queue that drains at the rate rather than a burst that is refused;
- on SQLite one process runs, and `LocalBudget` keeps the next free turn in memory; on
  PostgreSQL every process of the bot reserves its turns from one row
  (`bot/store/postgres/budget.py`), so the rate holds for all of them together;
- a refusal that concerns the whole bot (Discord's global limit) `hold`s the budget: nobody
  gets a turn until the platform's `retry_after` has passed, in any process.

Waits go through the injected `Clock`, so tests move a fake clock instead of sleeping (and a
scaled test clock paces in its own seconds). `Pacer` is what an adapter holds: the budget of
its platform and the `Metrics` port, so waits and refusals are counted by platform
(`studybot_rate_limit_wait_seconds`, `studybot_rate_limited_total`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.ports import Budget, Clock, Metrics

MAX_HOLD = 600.0  # seconds: a retry_after past this is a platform's mistake, not an instruction


class LocalBudget:
    """Evenly spaced turns at `rate` a second, for this process alone."""

    def __init__(self, rate: float, clock: Clock) -> None:
        self._interval = timedelta(seconds=1 / rate)
        self._clock = clock
        self._next: datetime | None = None  # the next free turn

    async def take(self) -> float:
        now = self._clock.now()
        turn = max(self._next or now, now)
        self._next = turn + self._interval
        await self._clock.sleep_until(turn)
        return (turn - now).total_seconds()

    async def hold(self, seconds: float) -> None:
        until = self._clock.now() + timedelta(seconds=bounded(seconds))
        self._next = max(self._next or until, until)


def bounded(seconds: float) -> float:
    """A platform's `retry_after`, kept between 0 and `MAX_HOLD`."""
    return min(max(seconds, 0.0), MAX_HOLD)


@dataclass(frozen=True, slots=True)
class Pacer:
    """One platform's budget, counted: what an adapter awaits before each request."""

    budget: Budget
    metrics: Metrics
    platform: str

    async def turn(self) -> None:
        """Wait for this request's turn; the wait is counted."""
        self.metrics.rate_limit_wait(self.platform, await self.budget.take())

    async def refused(self, retry_after: float, *, everyone: bool) -> None:
        """The platform refused a request (429). `everyone`: the limit was the whole bot's
        (Discord's global one), so no process sends until `retry_after` has passed; a
        limit of one route or channel is the client library's to wait out."""
        self.metrics.rate_limited(self.platform)
        if everyone:
            await self.budget.hold(retry_after)


SharedBudgets = Callable[[str, float], Budget]  # a budget by name and rate, in the database


@dataclass(frozen=True, slots=True)
class Pacers:
    """Where the composition root makes each platform's pacer: a budget shared through the
    database when several processes may run (PostgreSQL), else this process's own."""

    clock: Clock
    metrics: Metrics
    shared: SharedBudgets | None = None

    def pacer(self, platform: str, rate: float) -> Pacer:
        """`platform`'s pacer at `rate` requests a second, for every process together."""
        if self.shared is not None:
            return Pacer(self.shared(platform, rate), self.metrics, platform)
        return Pacer(LocalBudget(rate, self.clock), self.metrics, platform)
