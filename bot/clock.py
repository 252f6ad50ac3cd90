"""The real clock, and a shifted, faster one for tests that run the bot as a process.

In-process tests use their own `Clock` (see tests/fakes.py) and move it by hand. A process
cannot be handed that object, so `STUDYBOT_TEST_CLOCK` (see `ClockOverride`) makes the
composition root use `ScaledClock` instead: wall time, moved to a chosen start and sped up.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

# Sleep in bounded steps, re-reading the clock: a suspended host or a clock step must not
# make a post hours late. (A deadline is what is awaited here, not a condition: no Event.)
MAX_STEP = 60.0


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep_until(self, when: datetime) -> None:
        while (remaining := (when - self.now()).total_seconds()) > 0:  # noqa: ASYNC110
            await asyncio.sleep(min(remaining, MAX_STEP))


class ScaledClock:
    """Starts at `start` and runs `speed` times as fast as the monotonic wall clock
    (`monotonic`: that clock, replaced in tests)."""

    def __init__(self, start: datetime, speed: float = 1.0,
                 monotonic: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self._start, self._speed, self._monotonic = start, speed, monotonic
        self._origin = monotonic()

    def now(self) -> datetime:
        elapsed = self._monotonic() - self._origin
        return self._start + timedelta(seconds=elapsed * self._speed)

    async def sleep_until(self, when: datetime) -> None:
        while (remaining := (when - self.now()).total_seconds()) > 0:  # noqa: ASYNC110
            await asyncio.sleep(min(remaining / self._speed, MAX_STEP))
