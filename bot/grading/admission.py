"""Who may start a grading now: one job per person, a few a minute, a bounded queue.

`Admission.admit(user, locale)` decides at once: it raises a `TooBusy` that says why when the
person already has a job running or waiting, has used up their per-minute allowance, or the
queue is full ("N ahead of you"). Otherwise it returns a `Ticket`; entering the ticket waits
for one of `concurrency` slots, leaving it frees the slot and the person's turn. Deciding
before waiting is the point: a flood of submissions gets answers, not a growing backlog that
stalls everyone; and the caller can store the submission between the two steps.

`Admits` is the boundary grading speaks to: `place` decides, stores the submission through
the given callable as part of the same decision, and returns a `Place` (the submission's id,
how many wait before it, and the slot to wait for). `Admission` is the one process's
answer, in memory; `bot.grading.shared_admission.SharedAdmission` gives the same answers
across every process of a deployment, over the database.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import TracebackType
from typing import Protocol

from bot.errors import TooBusy
from bot.i18n import t
from bot.ports import Clock
from bot.types import Locale, User

MINUTE = timedelta(minutes=1)
Key = tuple[str, str]
KindKey = tuple[str, str, str]
FORGET_ABOVE = 256  # people's windows kept before stale ones are dropped


@dataclass(frozen=True, slots=True)
class AdmissionConfig:
    concurrency: int = 4  # gradings at once (each is one worker process)
    queue_size: int = 32  # gradings waiting for a slot, beyond which we refuse
    per_minute: int = 6  # gradings a person may start in any minute


class Place:
    """An admitted grading: its stored submission, how many waited before it, and (in
    process) the ticket whose slot it grades in. Always use it (`async with`)."""

    def __init__(self, submission_id: int, ahead: int, ticket: Ticket | None = None) -> None:
        self.submission_id, self.ahead, self._ticket = submission_id, ahead, ticket

    async def __aenter__(self) -> None:
        if self._ticket is not None:
            await self._ticket.__aenter__()

    async def __aexit__(self, *exc: type[BaseException] | BaseException | TracebackType | None
                        ) -> None:  # fmt: skip
        if self._ticket is not None:
            await self._ticket.__aexit__(*exc)


# Stores the admitted submission; returns its id.
Store = Callable[[], Awaitable[int]]


class Admits(Protocol):
    async def place(self, user: User, locale: Locale, kind: str, store: Store) -> Place:
        """Admit one grading of `kind` ("submit" or "run") and store it, or raise `TooBusy`."""
        ...


class Admission:
    def __init__(self, clock: Clock, config: AdmissionConfig = AdmissionConfig()) -> None:
        self._clock, self.config = clock, config
        self._slots = asyncio.Semaphore(config.concurrency)
        self._active: set[Key] = set()
        self.waiting = 0
        self._recent: dict[KindKey, collections.deque[datetime]] = {}

    def admit(self, user: User, locale: Locale, kind: str = "submit") -> Ticket:
        """A ticket for one grading of `kind` ("submit" or "run"): one at a time per person,
        and a per-minute allowance per person and kind, so trying snippets with `/run`
        never uses up the submissions a person has left."""
        key = (user.platform, user.id)
        if key in self._active:
            raise TooBusy(t(locale, "grading.one_at_a_time"))
        now = self._clock.now()
        self._forget_before(now - MINUTE)
        recent = self._recent.setdefault((*key, kind), collections.deque())
        while recent and recent[0] <= now - MINUTE:
            recent.popleft()
        if len(recent) >= self.config.per_minute:
            wait = int((recent[0] + MINUTE - now).total_seconds()) + 1
            raise TooBusy(t(locale, "grading.rate", limit=self.config.per_minute, seconds=wait))
        if self.waiting >= self.config.queue_size:
            raise TooBusy(t(locale, "grading.busy", ahead=self.waiting))
        recent.append(now)
        self._active.add(key)
        return Ticket(self, key)

    async def place(self, user: User, locale: Locale, kind: str, store: Store) -> Place:
        """`admit`, then `store`; the ticket is given back if storing fails."""
        ticket = self.admit(user, locale, kind)
        ahead = self.waiting
        try:
            return Place(await store(), ahead, ticket)
        except BaseException:
            ticket.cancel()
            raise

    def _forget_before(self, cutoff: datetime) -> None:
        """Drop the windows of people with no grading since `cutoff`, once the table has
        grown past a few hundred: it holds who graded in the last minute, not everyone ever
        seen. (Each window is in time order, so its last entry is its newest.)"""
        if len(self._recent) < FORGET_ABOVE:
            return
        stale = [k for k, window in self._recent.items() if not window or window[-1] <= cutoff]
        for k in stale:
            del self._recent[k]


class Ticket:
    """A place in line. Always use it (`async with`), or call `cancel()`."""

    def __init__(self, admission: Admission, key: Key) -> None:
        self._admission, self._key, self._holding = admission, key, False

    async def __aenter__(self) -> None:
        a = self._admission
        a.waiting += 1
        try:
            await a._slots.acquire()
            self._holding = True
        except BaseException:
            self.cancel()
            raise
        finally:
            a.waiting -= 1

    async def __aexit__(self, *exc: type[BaseException] | BaseException | TracebackType | None
                        ) -> None:  # fmt: skip
        if self._holding:
            self._admission._slots.release()
            self._holding = False
        self.cancel()

    def cancel(self) -> None:
        self._admission._active.discard(self._key)
