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
- a limit per channel (Slack's) is a `ChannelPacer`: a small local budget per channel,
  which allows a short burst, as Slack does;
- a refusal that concerns the whole bot (Discord's global limit) `hold`s the budget: nobody
  gets a turn until the platform's `retry_after` has passed, in any process.

Waits go through a `Clock`, so tests move a fake clock instead of sleeping. It is the real
clock in a running bot even when `STUDYBOT_TEST_CLOCK` scales the schedules' clock: a
platform counts real seconds, and a clock slowed a thousandfold would space two requests
minutes apart. `Pacer` is what an adapter holds: the budget of
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
    """Turns at `rate` a second, for this process alone; up to `burst` of them at once
    after a quiet spell (1: evenly spaced, always)."""

    def __init__(self, rate: float, clock: Clock, burst: int = 1) -> None:
        self._interval = timedelta(seconds=1 / rate)
        self._slack = self._interval * (burst - 1)  # how much earlier than evenly spaced
        self._clock = clock
        self._next: datetime | None = None  # the next free turn

    async def take(self) -> float:
        now = self._clock.now()
        due = max(self._next or now, now)  # when this turn would be, evenly spaced
        turn = max(due - self._slack, now)  # earlier by up to the burst, never past
        self._next = due + self._interval
        await self._clock.sleep_until(turn)
        return (turn - now).total_seconds()

    async def hold(self, seconds: float) -> None:
        until = self._clock.now() + timedelta(seconds=bounded(seconds)) + self._slack
        self._next = max(self._next or until, until)

    def idle(self) -> bool:
        """Whether this budget has nothing left to remember (a burst is available again)."""
        return self._next is None or self._next <= self._clock.now()


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


class ChannelPacer:
    """Turns per channel (Slack allows about one message a second in each, with short
    bursts), this process's own: a channel's posts come from one process (the scheduler
    claims each post once; a reply goes out where its command was taken). Budgets of quiet
    channels are forgotten once more than `KEEP` are remembered."""

    KEEP = 1024

    def __init__(self, rate: float, burst: int, clock: Clock, metrics: Metrics,
                 platform: str) -> None:  # fmt: skip
        self._rate, self._burst, self._clock = rate, burst, clock
        self._metrics, self._platform = metrics, platform
        self._budgets: dict[str, LocalBudget] = {}

    async def turn(self, channel: str) -> None:
        """Wait for a turn to post in `channel`; the wait is counted."""
        budget = self._budgets.get(channel)
        if budget is None:
            self._forget_quiet()
            budget = self._budgets[channel] = LocalBudget(self._rate, self._clock, self._burst)
        self._metrics.rate_limit_wait(self._platform, await budget.take())

    def _forget_quiet(self) -> None:
        if len(self._budgets) >= self.KEEP:
            self._budgets = {k: b for k, b in self._budgets.items() if not b.idle()}


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

    def per_channel(self, platform: str, rate: float, burst: int) -> ChannelPacer:
        """`platform`'s pacer of each channel: `rate` posts a second, `burst` at once."""
        return ChannelPacer(rate, burst, self.clock, self.metrics, platform)
