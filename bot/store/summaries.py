"""The ledger of weekly summary posts: one row per (schedule, ISO week), claimed before the
summary is sent, so a week's summary goes out at most once, restarts included (as
`daily_posts` does for daily posts). A claim whose send failed is marked `failed` and not
retried: next week's summary follows as planned."""

from __future__ import annotations

from datetime import datetime

from bot.store.db import Database


class SummaryStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def claim(self, schedule_id: int, week: str) -> bool:
        """Insert the week's row as pending; False if it was claimed already."""
        return bool(await self._db.fetch_all(  # one statement, one transaction (autocommit)
            """INSERT INTO summary_posts (schedule_id, week, state) VALUES (?, ?, 'pending')
               ON CONFLICT DO NOTHING RETURNING 1""",
            (schedule_id, week),
        ))  # fmt: skip

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
