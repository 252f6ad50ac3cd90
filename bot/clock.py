"""The real clock. Tests use their own `Clock` (see tests/fakes.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

# Sleep in bounded steps, re-reading the clock: a suspended host or a clock step must not
# make a post hours late. (A deadline is what is awaited here, not a condition: no Event.)
MAX_STEP = 60.0


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep_until(self, when: datetime) -> None:
        while (remaining := (when - self.now()).total_seconds()) > 0:  # noqa: ASYNC110
            await asyncio.sleep(min(remaining, MAX_STEP))
