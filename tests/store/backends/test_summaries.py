"""Weekly summary claims on both engines: one claim per (schedule, week), then sent or failed."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.store.db import Database
from bot.store.summaries import SummaryStore
from bot.types import ChannelRef
from tests.store.backends import rows

AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


async def _states(db: Database) -> list[tuple[str, str, str | None, str | None]]:
    found = await db.fetch_all(
        "SELECT week, state, message_id, sent_at FROM summary_posts ORDER BY schedule_id, week"
    )
    return [(str(r[0]), str(r[1]), r[2], r[3]) for r in found]


async def test_a_week_is_claimed_once_per_schedule(backend: Database) -> None:
    summaries = SummaryStore(backend)
    first = await rows.schedule(backend, ChannelRef("test", "c-1", "w-1"))
    other = await rows.schedule(backend, ChannelRef("test", "c-2", "w-1"))
    assert await summaries.claim(first, "2026-W09")
    assert not await summaries.claim(first, "2026-W09")  # a restart, another process
    assert await summaries.claim(other, "2026-W09")
    assert await summaries.claim(first, "2026-W10")
    await summaries.sent(first, "2026-W09", "m-1", AT)
    await summaries.failed(first, "2026-W10")
    assert not await summaries.claim(first, "2026-W10")  # a failed week is not retried
    assert await _states(backend) == [
        ("2026-W09", "sent", "m-1", AT.isoformat()),
        ("2026-W10", "failed", None, None),
        ("2026-W09", "pending", None, None),
    ]
