"""Weekly summary claims on both engines: one claim per (schedule, week), then sent or
failed; a claim leased, renewed by its holder, and taken over by another once it lapses."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.store.db import Database
from bot.store.schedules import Lease
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
    assert await summaries.claim(first, "2026-W09", AT)
    assert not await summaries.claim(first, "2026-W09", AT)  # a restart, another process
    assert await summaries.claim(other, "2026-W09", AT)
    assert await summaries.claim(first, "2026-W10", AT)
    await summaries.sent(first, "2026-W09", "m-1", AT)
    await summaries.failed(first, "2026-W10")
    assert not await summaries.claim(first, "2026-W10", AT)  # a failed week is not retried
    assert await _states(backend) == [
        ("2026-W09", "sent", "m-1", AT.isoformat()),
        ("2026-W10", "failed", None, None),
        ("2026-W09", "pending", None, None),
    ]


async def test_a_lapsed_claim_is_taken_over_once_and_a_renewed_one_is_not(
    backend: Database,
) -> None:
    """p0 died after claiming; p1 lives and renews its claims on `test`. p2 takes over
    p0's claim, once, and nothing else: not p1's, not one on a platform it does not serve,
    not one made before leases, not one due before the grace period."""
    summaries, until = SummaryStore(backend), AT + timedelta(seconds=60)
    ids = [await rows.schedule(backend, ChannelRef(platform, f"c-{n}", "w-1"))
           for n, platform in enumerate(("test", "test", "test", "other"))]  # fmt: skip
    dead, live, old, elsewhere = ids
    assert await summaries.claim(dead, "2026-W09", AT, Lease("p0", until))
    for schedule in (live, elsewhere):
        assert await summaries.claim(schedule, "2026-W09", AT, Lease("p1", until))
    assert await summaries.claim(old, "2026-W09", AT)  # before leases: no holder, no lease
    renewed = Lease("p1", AT + timedelta(seconds=110))
    assert await summaries.renew(renewed, frozenset({"test"})) == 1
    now, since = AT + timedelta(seconds=70), AT - timedelta(hours=1)
    mine = Lease("p2", now + timedelta(seconds=60))
    takes = [await summaries.take_over(mine, now, since, frozenset({"test"})) for _ in range(2)]
    assert takes == [[(dead, AT)], []]  # once: the second look finds it held by p2
    late = AT + timedelta(hours=2)  # p2 died too, but the summary is past the grace period
    assert await summaries.take_over(Lease("p3", late), late, late - timedelta(hours=1),
                                     frozenset({"test"})) == []  # fmt: skip
