"""The core's boundaries, one small Protocol each, so fakes need inherit nothing.

- `Clock`: the current time, injected so tests move a fake clock instead of sleeping.
- `ChatAdapter`: how the core sends a message to a channel (scheduled posts, follow-ups),
  edits one it sent (a quiz's tally) and messages a member privately (the due-review digest);
  adapters implement it, the console included.
- `Executor`: where submitted code runs: the sandbox's fresh, limited worker processes, or
  (for the benchmark's floor) the same harness in-process.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from bot.types import ChannelRef, MessageRef, Reply, User

if TYPE_CHECKING:
    from bot.grades import RawRun


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...

    async def sleep_until(self, when: datetime) -> None:
        """Return once `now()` has reached `when` (at once if it already has)."""
        ...


class ChatAdapter(Protocol):
    async def send(
        self,
        channel: ChannelRef,
        reply: Reply,
        *,
        thread_of: MessageRef | None = None,
        nonce: str | None = None,
    ) -> MessageRef:
        """Post `reply` to `channel` (in the thread of `thread_of` if given).

        `nonce` is the same for every attempt at one scheduled post: a platform that
        deduplicates by it (Discord) turns a resend after a crash into a no-op. Raise
        `DeliveryError` when the platform refuses.
        """
        ...

    async def edit(self, message: MessageRef, reply: Reply) -> None:
        """Replace a message this adapter sent with `reply` (a quiz post's new tally): its
        first page; raise `DeliveryError` when the platform refuses."""
        ...

    async def send_direct(self, user: User, reply: Reply) -> None:
        """Send `reply` to `user` alone, as a direct message (the morning digest); raise
        `DeliveryError` when the platform refuses (a member who blocks direct messages)."""
        ...


class Executor(Protocol):
    async def run(self, job: dict[str, Any], deadline: float) -> RawRun:
        """Run one grading job (see bot/grading/sandbox/harness.py) within `deadline` seconds
        of wall time and return the worker's raw report."""
        ...
