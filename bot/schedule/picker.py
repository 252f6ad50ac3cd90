"""Choosing a channel's next question: no repeats until the pool is used up, then a new cycle.

Each question row of the ledger records the cycle it belongs to, per kind (explained
questions and coding problems cycle separately, since coding days draw from their own pool).
The pick is random among the questions not yet asked in the current cycle, seeded by the
schedule and slot, so it is deterministic under test and across a retry of the same slot.
A new cycle never opens with the question that closed the last one (unless the pool holds
nothing else): the ledger knows which it was, so a restart of the bot in between changes
nothing. The post that opens a new cycle says so (`bot.scheduler.poster`).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

from bot.schedule.model import Cycle, Schedule
from bot.types import Kind

Candidates = Callable[[Kind, str | None], Awaitable[list[str]]]
Asked = Callable[[int, Kind], Awaitable[Cycle]]


async def choose(
    asked_in: Asked, candidates: Candidates, schedule: Schedule, kind: Kind, slot: str
) -> tuple[str, Kind, int] | None:
    """(question id, kind, cycle) for `slot`, or None if nothing fits the schedule's filter.

    A coding day with no coding problem in the filter falls back to an explained question.
    """
    for wanted in (kind, Kind.QA) if kind is Kind.CODING else (kind,):
        pool = await candidates(wanted, schedule.topic)
        if pool:
            current = await asked_in(schedule.id, wanted)
            cycle, remaining = current.number, sorted(set(pool) - current.asked)
            if not remaining:
                cycle, remaining = cycle + 1, sorted(set(pool) - {current.last}) or sorted(pool)
            rng = random.Random(f"{schedule.id}/{slot}/{wanted.value}")
            return rng.choice(remaining), wanted, cycle
    return None
