"""Reported mistakes (`mistake_reports`, schema step 16): filed, paged, resolved, listed.

A report names its item (a shared-bank item is a row of `questions`; another is a server's
own), the server it was made in (`ChannelRef.server`, which scopes who may resolve it), and
its reporter by platform, id and name, with their language (the note is sent in it). A
member's `/forget me` clears their id and name and keeps the text, which is about the bank,
not about them (`bot.store.members.ANONYMISED`); the resolver's likewise.

A report is resolved once: the update names the server and wants the report open, so a
moderator of another server, or a second click, changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.store.db import Database, Row
from bot.types import Locale, User

OPEN, RESOLVED = "open", "resolved"


@dataclass(frozen=True, slots=True)
class Report:
    id: int
    item: str
    server: str
    platform: str
    reporter_id: str | None  # None once the reporter asked to be forgotten
    reporter_name: str | None
    locale: Locale
    quote: str
    text: str
    created_at: datetime
    state: str = OPEN
    resolver_name: str | None = None
    note: str | None = None
    resolved_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class NewReport:
    item: str
    server: str
    reporter: User
    locale: Locale
    quote: str
    text: str


_COLUMNS = """id, question_id, server, reporter_platform, reporter_id, reporter_name, locale,
              quote, body, created_at, state, resolver_name, note, resolved_at"""


class MistakeStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(self, new: NewReport, at: datetime) -> int:
        row = await self._db.fetch_one(
            """INSERT INTO mistake_reports (question_id, server, reporter_platform, reporter_id,
                   reporter_name, locale, quote, body, created_at, state)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'open') RETURNING id""",
            (new.item, new.server, new.reporter.platform, new.reporter.id,
             new.reporter.display_name, new.locale.value, new.quote, new.text, at.isoformat()),
        )  # fmt: skip
        assert row is not None  # RETURNING always returns the new row
        return int(row[0])

    async def filed_since(self, user: User, since: datetime) -> int:
        """How many reports `user` filed at or after `since` (their rate limit)."""
        row = await self._db.fetch_one(
            """SELECT count(*) FROM mistake_reports WHERE reporter_platform = ?
               AND reporter_id = ? AND created_at >= ?""",
            (user.platform, user.id, since.isoformat()),
        )
        return int(row[0]) if row else 0

    async def open_page(self, server: str, index: int) -> tuple[Report | None, int]:
        """The `index`th open report of `server`, oldest first, and how many are open."""
        count = await self._db.fetch_one(
            "SELECT count(*) FROM mistake_reports WHERE server = ? AND state = 'open'", (server,)
        )
        row = await self._db.fetch_one(
            f"""SELECT {_COLUMNS} FROM mistake_reports WHERE server = ? AND state = 'open'
                ORDER BY id LIMIT 1 OFFSET ?""",
            (server, max(index, 0)),
        )
        return (_report(row) if row else None), int(count[0]) if count else 0

    async def get(self, report_id: int) -> Report | None:
        row = await self._db.fetch_one(
            f"SELECT {_COLUMNS} FROM mistake_reports WHERE id = ?", (report_id,)
        )
        return _report(row) if row else None

    async def resolve(
        self, report_id: int, server: str, resolver: User, note: str, at: datetime
    ) -> Report | None:
        """Mark an open report of `server` resolved with `note`; the report as it now is, or
        None if there is no such open report there."""
        row = await self._db.fetch_one(
            f"""UPDATE mistake_reports SET state = 'resolved', resolver_id = ?,
                    resolver_name = ?, note = ?, resolved_at = ?
                WHERE id = ? AND server = ? AND state = 'open' RETURNING {_COLUMNS}""",
            (resolver.id, resolver.display_name, note, at.isoformat(), report_id, server),
        )
        return _report(row) if row else None

    async def on_shared_items(self, *, open_only: bool) -> list[Report]:
        """Reports on items of the shared bank (rows of `questions`), every server's, oldest
        first: what the bank's maintainers read."""
        state = "AND r.state = 'open'" if open_only else ""
        rows = await self._db.fetch_all(
            f"""SELECT {_prefixed("r")} FROM mistake_reports AS r
                WHERE r.question_id IN (SELECT id FROM questions) {state} ORDER BY r.id"""
        )
        return [_report(row) for row in rows]


def _prefixed(alias: str) -> str:
    return ", ".join(f"{alias}.{c.strip()}" for c in _COLUMNS.split(","))


def _report(row: Row) -> Report:
    return Report(
        id=int(row[0]), item=str(row[1]), server=str(row[2]), platform=str(row[3]),
        reporter_id=row[4], reporter_name=row[5], locale=Locale.parse(str(row[6])),
        quote=str(row[7]), text=str(row[8]), created_at=datetime.fromisoformat(str(row[9])),
        state=str(row[10]), resolver_name=row[11], note=row[12],
        resolved_at=datetime.fromisoformat(str(row[13])) if row[13] else None,
    )  # fmt: skip
