"""Schedule changes made by other processes, found with one cheap read a tick.

Each process plans from its own copy of the schedules (the scheduler's roster). A change
made through this process re-plans at once (`Scheduler.schedule_changed`); one made through
another process is found here: the ledger counts changes (`ScheduleStore.revision`), and
only when the count moved since the last look are the schedules stamped after it read, and
the schedules counted, to notice removals (only then are the ids compared). A schedule read
back equal to the one held is no change, so this process's own changes, seen again here,
re-plan nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.schedule.model import Schedule
from bot.store.schedules import ScheduleStore


@dataclass(frozen=True, slots=True)
class Changed:
    changed: list[Schedule]  # new, or different from the roster's
    removed: list[int]  # in the roster, gone from the database


class Changes:
    def __init__(self, ledger: ScheduleStore) -> None:
        self._ledger = ledger
        self._seen: int | None = None  # the change count at the last look

    async def start(self) -> None:
        """Note the count before the first schedules are read, so nothing after is missed."""
        if self._seen is None:
            self._seen = await self._ledger.revision()

    async def since(self, roster: Mapping[int, Schedule], platforms: frozenset[str]) -> Changed:
        """What changed on `platforms` (whose schedules are all in `roster`) since the last look."""
        if self._seen is None:
            return Changed([], [])
        count = await self._ledger.revision()
        if count == self._seen:
            return Changed([], [])
        fresh = await self._ledger.changed_since(self._seen, platforms)
        changed = [s for s in fresh if roster.get(s.id) != s]
        removed: list[int] = []
        if len(roster.keys() | {s.id for s in fresh}) != await self._ledger.count_on(platforms):
            present = await self._ledger.ids_on(platforms)
            removed = [i for i in roster if i not in present]
        self._seen = count
        return Changed(changed, removed)
