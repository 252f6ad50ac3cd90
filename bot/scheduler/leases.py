"""Leases: how processes that share one ledger leave each other's posts alone, and take over
the posts of one that died.

A claim names the process that made it and lasts `duration` unless renewed. A live process
renews its claims on the platforms it can reach every few seconds (`Scheduler.run`'s
heartbeat), so a post it is sending, retrying or about to record is never taken from it. A
process killed between claim and record stops renewing; once its lease lapses, the next
tick of any live process on that platform takes the post over, in one atomic statement
(`ScheduleStore.take_over`), and sends it again with the same nonce. A post that waited (a
retry, a platform away) is held again just before it is sent (`retake`), so a process that
was thought dead and came back does not send what another took over.

A process never takes over its own claims: it still holds them in memory, as retries or
parked posts, and sends them itself.

Weekly summaries are claimed under the same lease (`bot.store.summaries`), renewed by the
same heartbeat and taken over the same way; their sends are not retried, so they need no
`retake`.
"""

from __future__ import annotations

import os
import secrets
import socket
from datetime import timedelta

from bot.ports import Clock
from bot.store.schedules import Lease, Post, ScheduleStore


def process_name() -> str:
    """Who holds a claim: the host and process, for a person reading the ledger, and a
    random part, so that a restarted process with a recycled pid is someone else."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Leases:
    def __init__(self, ledger: ScheduleStore, clock: Clock, owner: str,
                 duration: timedelta) -> None:  # fmt: skip
        self._ledger, self._clock = ledger, clock
        self.owner, self.duration = owner, duration

    def lease(self) -> Lease:
        """A lease starting now, for a claim made now."""
        return Lease(self.owner, self._clock.now() + self.duration)

    async def renew(self, platforms: frozenset[str]) -> int:
        return await self._ledger.renew(self.lease(), platforms)

    async def take_over(self, platforms: frozenset[str]) -> list[Post]:
        """The pending posts on `platforms` whose claimant (not this process) stopped
        renewing: now ours."""
        return await self._ledger.take_over(self.lease(), self._clock.now(), platforms)

    async def retake(self, post: Post) -> bool:
        return await self._ledger.retake(post, self.lease(), self._clock.now())
