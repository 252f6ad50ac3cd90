"""The ledger of weekly summary posts: one row per (schedule, ISO week), claimed before the
summary is sent, so a week's summary goes out at most once, restarts included (as
`daily_posts` does for daily posts). A claim whose send failed is marked `failed` and not
retried: next week's summary follows as planned.

A claim is leased as a daily post's is (bot/scheduler/leases.py): it names its process and
holds until `lease_until` unless renewed, so a process that died between claim and send
leaves a row that a live process takes over (`take_over`) and sends, with the same nonce.
"""

from __future__ import annotations

from datetime import datetime

from bot.store.db import Database
from bot.store.schedules import Lease, lease_instant, marks


class SummaryStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def claim(self, schedule_id: int, week: str, due: datetime,
                    lease: Lease | None = None) -> bool:  # fmt: skip
        """Insert the week's row as pending, held by `lease`; False if claimed already."""
        owner, until = (lease.owner, lease_instant(lease.until)) if lease else (None, None)
        return bool(await self._db.fetch_all(  # one statement, one transaction (autocommit)
            """INSERT INTO summary_posts (schedule_id, week, state, claimed_by, lease_until,
                   due_at) VALUES (?, ?, 'pending', ?, ?, ?)
               ON CONFLICT DO NOTHING RETURNING 1""",
            (schedule_id, week, owner, until, lease_instant(due)),
        ))  # fmt: skip

    async def renew(self, lease: Lease, platforms: frozenset[str]) -> int:
        """Extend the pending claims `lease.owner` holds on `platforms`; how many."""
        if not platforms:
            return 0
        return await self._db.execute(
            f"""UPDATE summary_posts SET lease_until = ?
                WHERE state = 'pending' AND claimed_by = ? AND schedule_id IN (
                    SELECT id FROM schedules WHERE platform IN ({marks(platforms)}))""",
            (lease_instant(lease.until), lease.owner, *platforms),
        )

    async def take_over(self, lease: Lease, now: datetime, since: datetime,
                        platforms: frozenset[str]) -> list[tuple[int, datetime]]:  # fmt: skip
        """Take the pending summaries on `platforms`, due since `since`, whose lease (held
        by another process) lapsed by `now`: (schedule id, when due) of each. One statement,
        so two live processes never take the same row."""
        if not platforms:
            return []
        rows = await self._db.fetch_all(
            f"""UPDATE summary_posts SET claimed_by = ?, lease_until = ?
                WHERE state = 'pending' AND lease_until < ? AND claimed_by <> ?
                  AND due_at >= ? AND schedule_id IN (
                    SELECT id FROM schedules WHERE platform IN ({marks(platforms)}))
                RETURNING schedule_id, due_at""",
            (lease.owner, lease_instant(lease.until), lease_instant(now), lease.owner,
             lease_instant(since), *platforms),
        )  # fmt: skip
        return sorted((int(r[0]), datetime.fromisoformat(r[1])) for r in rows)

    async def sent(self, schedule_id: int, week: str, message_id: str, at: datetime) -> None:
        await self._db.execute(
            """UPDATE summary_posts SET state = 'sent', message_id = ?, sent_at = ?
               WHERE schedule_id = ? AND week = ?""",
            (message_id, at.isoformat(), schedule_id, week),
        )

    async def failed(self, schedule_id: int, week: str) -> None:
        await self._db.execute(
            "UPDATE summary_posts SET state = 'failed' WHERE schedule_id = ? AND week = ?",
            (schedule_id, week),
        )
