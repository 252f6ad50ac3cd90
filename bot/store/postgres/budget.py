"""A rate budget every process of the bot shares: one row of `rate_budgets` per budget.

The row holds the budget's next free turn. Reserving turns is one statement: an upsert that
moves `next_turn` on by some intervals from whichever is later, itself or now, and returns
how far the first turn it took lies ahead. The row's lock orders concurrent reservations,
from any process, so turns are handed out once each and `1 / rate` apart, and a process that
dies holding reserved turns only leaves a gap. Time is the database's (`clock_timestamp()`): every
process reads the same clock, however far the machines' own clocks drift; the caller then
waits for each turn on its injected Clock.

A process reserves `BLOCK` turns with each statement and hands them to its own requests:
the row's lock is then taken a few times a second rather than once per request, which
matters when a loaded database server keeps a lock's holder waiting for a core. A reserved
turn nobody here took in time is dropped, never used late (late turns would bunch up with
the next ones); it only leaves a gap. `hold` pushes the next free turn past a platform's
`retry_after`, for every process, and drops what this process had reserved.
"""

from __future__ import annotations

import asyncio
from collections import deque
from datetime import datetime, timedelta

from bot.pacing import bounded
from bot.ports import Clock
from bot.store.db import Database

BLOCK = 4  # turns a statement reserves: at 45 a second, about eleven statements a second

# `now` once per statement (a CTE is evaluated once), the row created on first use.
_TAKE = """
    WITH clock AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS now)
    INSERT INTO rate_budgets AS b (name, next_turn)
    SELECT ?, clock.now + ? FROM clock
    ON CONFLICT (name) DO UPDATE SET next_turn = greatest(b.next_turn + ?, EXCLUDED.next_turn)
    RETURNING b.next_turn - ? - (SELECT now FROM clock)
"""
_HOLD = """
    WITH clock AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS now)
    INSERT INTO rate_budgets AS b (name, next_turn)
    SELECT ?, clock.now + ? FROM clock
    ON CONFLICT (name) DO UPDATE SET next_turn = greatest(b.next_turn, EXCLUDED.next_turn)
"""


class SharedBudget:
    """Turns at `rate` a second for every process together, kept in the row `name`,
    reserved `block` at a time."""

    def __init__(self, db: Database, name: str, rate: float, clock: Clock,
                 block: int = BLOCK) -> None:  # fmt: skip
        self._db, self._name, self._clock, self._block = db, name, clock, block
        self._step = timedelta(seconds=1 / rate)
        self._turns: deque[datetime] = deque()  # reserved here, not yet taken
        self._reserving = asyncio.Lock()

    async def take(self) -> float:
        asked = self._clock.now()
        turn = await self._next_turn()
        await self._clock.sleep_until(turn)
        return max((turn - asked).total_seconds(), 0.0)

    async def hold(self, seconds: float) -> None:
        self._turns.clear()  # reserved before the refusal: not to be used now
        await self._db.execute(_HOLD, (self._name, bounded(seconds)))

    async def _next_turn(self) -> datetime:
        async with self._reserving:
            now = self._clock.now()
            while self._turns and self._turns[0] < now - self._step:
                self._turns.popleft()  # a turn nobody took in time is lost, never used late
            if not self._turns:
                await self._reserve()
            return self._turns.popleft()

    async def _reserve(self) -> None:
        span = self._step.total_seconds() * self._block
        row = await self._db.fetch_one(_TAKE, (self._name, span, span, span))
        ahead = max(float(row[0]), 0.0) if row is not None else 0.0
        first = self._clock.now() + timedelta(seconds=ahead)
        self._turns.extend(first + self._step * n for n in range(self._block))
