"""Pacing under a rate limit (bot/pacing.py): evenly spaced turns, in the order asked, held
after a refusal, counted by platform; on PostgreSQL one budget for every process.

The local budget runs on the fake clock: turns are read off the times its takers wake at.
The shared one runs on PostgreSQL's clock: its takers, from three pools as three processes
would, return how far ahead their turns lay, and those turns must be spaced by the interval
whatever the machine's speed (a slow machine only leaves gaps between them).
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

from bot.pacing import MAX_HOLD, LocalBudget, Pacer, Pacers
from bot.ports import Budget
from bot.store.postgres.budget import SharedBudget
from bot.store.postgres.database import open_postgres
from bot.store.postgres.db import PostgresDatabase
from tests.fakes import FakeClock
from tests.waiting import until


class Counted:
    """Metrics that keep what pacing told them."""

    def __init__(self) -> None:
        self.waits: list[tuple[str, float]] = []
        self.limited: list[str] = []

    def rate_limit_wait(self, platform: str, seconds: float) -> None:
        self.waits.append((platform, seconds))

    def rate_limited(self, platform: str) -> None:
        self.limited.append(platform)


async def _woken(clock: FakeClock, budget: Budget, takers: int) -> list[float]:
    """When each of `takers` concurrent takers got its turn, in fake seconds from now."""
    start, woke = clock.now(), []

    async def take() -> None:
        await budget.take()
        woke.append((clock.now() - start).total_seconds())

    tasks = [asyncio.create_task(take()) for _ in range(takers)]

    def all_asleep() -> bool:  # every taker not done yet waits on the clock
        return len(clock.sleeping_until) == sum(not t.done() for t in tasks)

    while not all(t.done() for t in tasks):
        await asyncio.sleep(0)  # let a woken taker finish
        await until(all_asleep)
        if clock.sleeping_until:
            clock.set(clock.sleeping_until[0])
    await asyncio.gather(*tasks)
    return woke


async def test_turns_are_evenly_spaced_in_the_order_asked() -> None:
    clock = FakeClock()
    woke = await _woken(clock, LocalBudget(50, clock), 10)
    assert woke == pytest.approx([i * 0.02 for i in range(10)])


async def test_a_burst_goes_at_once_and_the_rest_at_the_rate() -> None:
    clock = FakeClock()
    woke = await _woken(clock, LocalBudget(1, clock, burst=3), 5)
    assert woke == pytest.approx([0, 0, 0, 1, 2])


async def test_each_channel_has_its_own_pace() -> None:
    clock, metrics = FakeClock(), Counted()
    pacer = Pacers(clock, metrics).per_channel("slack", 1, burst=1)  # type: ignore[arg-type]
    for channel in ("C1", "C2", "C3"):
        await pacer.turn(channel)  # a first message in each: none waits for the others'
    assert [w for _, w in metrics.waits] == [0.0, 0.0, 0.0]
    second = asyncio.create_task(pacer.turn("C1"))
    await until(lambda: clock.sleeping_until)
    assert clock.sleeping_until == [clock.now() + timedelta(seconds=1)]
    clock.set(clock.sleeping_until[0])
    await second
    assert metrics.waits[-1] == ("slack", 1.0)


async def test_a_quiet_budget_gives_a_turn_at_once() -> None:
    clock = FakeClock()
    budget = LocalBudget(2, clock)
    assert await budget.take() == 0.0
    clock.set(clock.now() + timedelta(seconds=5))  # long after the reserved turn
    assert await budget.take() == 0.0


async def test_a_hold_gives_nobody_a_turn_until_it_passes() -> None:
    clock = FakeClock()
    budget = LocalBudget(50, clock)
    await budget.hold(3.0)
    woke = await _woken(clock, budget, 2)
    assert woke == pytest.approx([3.0, 3.02])


async def test_a_hold_is_bounded_whatever_the_platform_says() -> None:
    clock = FakeClock()
    budget = LocalBudget(50, clock)
    await budget.hold(1e9)
    woke = await _woken(clock, budget, 1)
    assert woke == pytest.approx([MAX_HOLD])


async def test_the_pacer_counts_waits_and_refusals_and_holds_only_for_everyone() -> None:
    clock, metrics = FakeClock(), Counted()
    pacer = Pacers(clock, metrics).pacer("discord", 10)  # type: ignore[arg-type]
    await pacer.refused(2.0, everyone=False)  # one route's limit: the library waits it out
    assert await _woken(clock, _Turns(pacer), 1) == [0.0]
    await pacer.refused(2.0, everyone=True)
    assert await _woken(clock, _Turns(pacer), 1) == pytest.approx([2.0])
    assert metrics.limited == ["discord", "discord"]
    assert [p for p, _ in metrics.waits] == ["discord", "discord"]
    assert metrics.waits[1][1] == pytest.approx(2.0)


class _Turns:
    """A pacer seen as a budget, for `_woken`."""

    def __init__(self, pacer: Pacer) -> None:
        self._pacer = pacer

    async def take(self) -> float:
        await self._pacer.turn()
        return 0.0

    async def hold(self, seconds: float) -> None:
        raise NotImplementedError


class _Instant:
    """A clock whose sleeps return at once: the shared budget's waits are then read, not
    waited (its turns are on the database's clock, which no test can move)."""

    def __init__(self) -> None:
        self._clock = FakeClock()

    def now(self) -> datetime:
        return self._clock.now()

    async def sleep_until(self, when: datetime) -> None:
        return None


_NOW = "SELECT extract(epoch FROM clock_timestamp())::float8"
_NEXT = "SELECT next_turn FROM rate_budgets WHERE name = 'discord'"


async def _scalar(dsn: str, sql: str) -> float:
    async with open_postgres(dsn, max_size=1) as pool:
        row = await PostgresDatabase(pool).fetch_one(sql)
    assert row is not None
    return float(row[0])


async def test_processes_sharing_a_budget_get_turns_spaced_for_all_of_them(
    postgres_dsn: str,
) -> None:
    rate, per_process, processes = 50.0, 40, 3
    waits: list[float] = []

    async def process() -> None:
        async with open_postgres(postgres_dsn, max_size=4) as pool:
            budget = SharedBudget(PostgresDatabase(pool), "discord", rate, _Instant())
            waits.extend(await asyncio.gather(*(budget.take() for _ in range(per_process))))

    start = await _scalar(postgres_dsn, _NOW)
    await asyncio.gather(*(process() for _ in range(processes)))
    # Every take moved the next free turn on by at least the interval, whichever process it
    # came from and however they interleaved: none was lost to a concurrent one, none was
    # handed out twice. (A slow machine only leaves gaps: the bound is a lower one.)
    taken = processes * per_process
    assert len(waits) == taken
    assert await _scalar(postgres_dsn, _NEXT) >= start + taken / rate - 1e-6
    # And the takers were told to wait for them: the last turn lay up to 2.4 s ahead.
    assert max(waits) <= (taken - 1) / rate + 1e-6
    assert sum(w > 0 for w in waits) > 0


async def test_a_hold_in_one_process_delays_the_turns_of_another(postgres_dsn: str) -> None:
    clock = _Instant()
    async with (
        open_postgres(postgres_dsn, max_size=2) as one,
        open_postgres(postgres_dsn, max_size=2) as other,
    ):
        first = SharedBudget(PostgresDatabase(one), "discord", 50, clock)
        second = SharedBudget(PostgresDatabase(other), "discord", 50, clock)
        slack = SharedBudget(PostgresDatabase(other), "slack", 50, clock)
        await first.hold(30.0)
        assert 29.0 < await second.take() <= 30.0
        assert await slack.take() == 0.0  # another budget, another row
