"""A rate budget every process of the bot shares: one row of `rate_budgets` per budget.

The row holds the budget's next free turn. Taking a turn is one statement: an upsert that
moves `next_turn` on by one interval from whichever is later, itself or now, and returns how
far the turn it took lies ahead. The row's lock orders concurrent takers, from any process,
so turns are handed out once each and `1 / rate` apart, and a process that dies holding
reserved turns only leaves a gap. Time is the database's (`clock_timestamp()`): every
process reads the same clock, however far the machines' own clocks drift; the caller then
waits the seconds returned on its injected Clock.

`hold` pushes the next free turn past a platform's `retry_after`, for every process.
"""

from __future__ import annotations

from datetime import timedelta

from bot.pacing import bounded
from bot.ports import Clock
from bot.store.db import Database

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
    """Turns at `rate` a second for every process together, kept in the row `name`."""

    def __init__(self, db: Database, name: str, rate: float, clock: Clock) -> None:
        self._db, self._name, self._clock = db, name, clock
        self._interval = 1 / rate

    async def take(self) -> float:
        step = self._interval
        row = await self._db.fetch_one(_TAKE, (self._name, step, step, step))
        wait = max(float(row[0]), 0.0) if row is not None else 0.0
        if wait:
            await self._clock.sleep_until(self._clock.now() + timedelta(seconds=wait))
        return wait

    async def hold(self, seconds: float) -> None:
        await self._db.execute(_HOLD, (self._name, bounded(seconds)))
