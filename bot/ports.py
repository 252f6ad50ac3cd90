"""The core's boundaries, one small Protocol each, so fakes need inherit nothing.

- `Clock`: the current time, injected so tests move a fake clock instead of sleeping.
- `ChatAdapter`: how the core sends a message to a channel (scheduled posts, follow-ups),
  edits one it sent (a quiz's tally) and messages a member privately (the due-review digest);
  adapters implement it, the console included.
- `Executor`: where submitted code runs: the sandbox's fresh, limited worker processes, or
  (for the benchmark's floor) the same harness in-process.
- `Budget`: turns under a platform's rate limit (bot/pacing.py): this process's own, or one
  every process of the bot shares through PostgreSQL.
- `Metrics`: what the running bot counts (interactions, posts, verdicts, the queue, the
  sandbox, reconnects, rate-limit waits), told where each happens. `NoMetrics` is the
  default; the Prometheus implementation lives in adapters/telemetry/ and is built only when
  a metrics port is set, so the core never imports prometheus_client. Every label a caller
  passes is from a bounded set (a command of the spec or "unknown", an outcome, a verdict,
  a layer, a platform's name), never a member, a channel or free text.
"""

from __future__ import annotations

from collections.abc import Mapping
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


class Budget(Protocol):
    async def take(self) -> float:
        """Wait for the next free turn (turns are `1 / rate` seconds apart, in the order
        asked) and return the seconds waited."""
        ...

    async def hold(self, seconds: float) -> None:
        """Give nobody a turn for `seconds` from now (the platform asked to wait)."""
        ...


class Metrics(Protocol):
    def interaction(self, command: str, outcome: str, seconds: float) -> None:
        """A command answered: its name (a spec's, else "unknown"), its outcome ("ok",
        "user_error", "failure") and the seconds the reply took."""
        ...

    def daily_post(self, outcome: str) -> None:
        """A scheduled post: "sent" (on time), "late" (sent after its slot) or "missed"."""
        ...

    def verdict(self, verdict: str) -> None:
        """A grading's verdict (a `Verdict` value)."""
        ...

    def queue_depth(self, jobs: int) -> None:
        """Grading jobs waiting in the queue (PostgreSQL), as last looked at."""
        ...

    def queue_wait(self, seconds: float) -> None:
        """How long a grading job waited in the queue before a grader took it."""
        ...

    def sandbox_restart(self) -> None:
        """The grading sandbox's zygote was restarted."""
        ...

    def isolation(self, layers: Mapping[str, bool]) -> None:
        """The sandbox's isolation layers, each active or not."""
        ...

    def reconnect(self, platform: str) -> None:
        """A chat platform connected again after it had been connected."""
        ...

    def rate_limit_wait(self, platform: str, seconds: float) -> None:
        """A request to `platform` waited `seconds` for its turn under the rate limit."""
        ...

    def rate_limited(self, platform: str) -> None:
        """`platform` refused a request for its rate limit (a 429)."""
        ...


class NoMetrics:
    """Counts nothing: the bot without a metrics port, and tests that do not look."""

    def interaction(self, command: str, outcome: str, seconds: float) -> None:
        pass

    def daily_post(self, outcome: str) -> None:
        pass

    def verdict(self, verdict: str) -> None:
        pass

    def queue_depth(self, jobs: int) -> None:
        pass

    def queue_wait(self, seconds: float) -> None:
        pass

    def sandbox_restart(self) -> None:
        pass

    def isolation(self, layers: Mapping[str, bool]) -> None:
        pass

    def reconnect(self, platform: str) -> None:
        pass

    def rate_limit_wait(self, platform: str, seconds: float) -> None:
        pass

    def rate_limited(self, platform: str) -> None:
        pass
