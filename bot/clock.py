"""The real clock. Tests use their own `Clock` (see tests/fakes.py)."""

from __future__ import annotations

from datetime import UTC, datetime


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)
