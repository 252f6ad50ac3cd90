"""Answers from the group (`group_answers`, schema step 17): given, listed, adopted.

An answer names its item (always a server's own, `s.<slug>`), the server it was given in
(`ChannelRef.server`: only that server's moderators list and adopt it), its author by
platform, id and name, and its text (mentions already neutralised). It is `open` until a
moderator adopts it: then, in one transaction, it becomes the explanation of that server's
row of the item (`questions.answer`, never a shared-bank row, whose `server` is NULL), only
if the item is still without one (a second adoption, or a click carried to another server,
changes nothing: the update wants the explanation the caller saw open), and the item's
search row is rewritten.

`/forget me` (`bot.store.members`) deletes a member's open answers and clears the id and name
on adopted ones: the explanation is the server's now.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime

from bot.store.db import Database, Row
from bot.store.ingest import search_row
from bot.store.search_index import index_for
from bot.types import ChannelRef, Locale, MessageRef, Question, User

OPEN, ADOPTED = "open", "adopted"


@dataclass(frozen=True, slots=True)
class GroupAnswer:
    id: int
    item: str
    server: str
    platform: str
    author_id: str | None  # None once the author asked to be forgotten
    author_name: str | None
    text: str
    created_at: datetime
    state: str = OPEN


@dataclass(frozen=True, slots=True)
class NewAnswer:
    item: str
    server: str
    author: User
    text: str


_COLUMNS = """id, question_id, server, author_platform, author_id, author_name, body,
              created_at, state"""

# The item's latest daily question post in a server (a schedule's server is its platform and
# workspace, or its channel outside one), the asking channel's own first.
_THREAD = """SELECT s.platform, s.channel, s.workspace, p.message_id, s.locale
              FROM daily_posts AS p
              JOIN schedules AS s ON s.id = p.schedule_id
              WHERE p.question_id = ? AND p.part = 'question' AND p.state = 'sent'
                AND p.message_id IS NOT NULL AND s.platform || ':' ||
                    CASE WHEN s.workspace = '' THEN s.channel ELSE s.workspace END = ?
              ORDER BY CASE WHEN s.channel = ? THEN 0 ELSE 1 END, p.sent_at DESC LIMIT 1"""


class AnswerStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(self, new: NewAnswer, at: datetime) -> GroupAnswer:
        row = await self._db.fetch_one(
            f"""INSERT INTO group_answers (question_id, server, author_platform, author_id,
                    author_name, body, created_at, state)
                VALUES (?, ?, ?, ?, ?, ?, ?, 'open') RETURNING {_COLUMNS}""",
            (new.item, new.server, new.author.platform, new.author.id,
             new.author.display_name, new.text, at.isoformat()),
        )  # fmt: skip
        assert row is not None  # RETURNING always returns the new row
        return _answer(row)

    async def given_since(self, user: User, since: datetime) -> int:
        """How many answers `user` gave at or after `since` (their rate limit)."""
        row = await self._db.fetch_one(
            """SELECT count(*) FROM group_answers WHERE author_platform = ?
               AND author_id = ? AND created_at >= ?""",
            (user.platform, user.id, since.isoformat()),
        )
        return int(row[0]) if row else 0

    async def open_for(self, server: str, item: str, limit: int) -> tuple[list[GroupAnswer], int]:
        """The first `limit` open answers to `item` in `server`, oldest first, and how many."""
        count = await self._db.fetch_one(
            """SELECT count(*) FROM group_answers WHERE server = ? AND question_id = ?
               AND state = 'open'""",
            (server, item),
        )
        rows = await self._db.fetch_all(
            f"""SELECT {_COLUMNS} FROM group_answers WHERE server = ? AND question_id = ?
                AND state = 'open' ORDER BY id LIMIT ?""",
            (server, item, limit),
        )
        return [_answer(row) for row in rows], int(count[0]) if count else 0

    async def get(self, answer_id: int, server: str) -> GroupAnswer | None:
        """Answer `answer_id` if it was given in `server` (another server's is unknown)."""
        row = await self._db.fetch_one(
            f"SELECT {_COLUMNS} FROM group_answers WHERE id = ? AND server = ?",
            (answer_id, server),
        )
        return _answer(row) if row else None

    async def adopted(self, item: str, server: str) -> GroupAnswer | None:
        """The answer adopted as `item`'s explanation in `server`, if one was."""
        row = await self._db.fetch_one(
            f"""SELECT {_COLUMNS} FROM group_answers WHERE server = ? AND question_id = ?
                AND state = 'adopted' ORDER BY id DESC LIMIT 1""",
            (server, item),
        )
        return _answer(row) if row else None

    async def adopt(
        self, answer: GroupAnswer, item: Question, moderator: User, at: datetime
    ) -> bool:
        """Make `answer` the explanation of `item` (its server's row, whose explanation is
        still the one in `item`: none yet), re-indexed for search; False if the answer was
        not open or the item's explanation changed meanwhile (another answer adopted)."""
        try:
            async with self._db.transaction():
                await self._adopt(answer, item, moderator, at)
        except _Undo:
            return False
        return True

    async def _adopt(self, answer: GroupAnswer, item: Question, moderator: User,
                     at: datetime) -> None:  # fmt: skip
        taken = await self._db.fetch_one(
            """UPDATE questions SET answer = ? WHERE id = ? AND server = ? AND answer = ?
               RETURNING id""",
            (answer.text, item.id, answer.server, item.answer),
        )
        done = await self._db.fetch_one(
            """UPDATE group_answers SET state = 'adopted', adopted_by = ?, adopted_at = ?
               WHERE id = ? AND server = ? AND question_id = ? AND state = 'open' RETURNING id""",
            (moderator.id, at.isoformat(), answer.id, answer.server, item.id),
        )
        if taken is None or done is None:
            raise _Undo  # rolls back whichever of the two went through
        await index_for(self._db).replace(
            [search_row(dataclasses.replace(item, answer=answer.text))]
        )

    async def thread_of(
        self, item: str, server: str, channel: ChannelRef
    ) -> tuple[MessageRef, Locale] | None:
        """The daily post of `item` in `server` to answer under (`channel`'s own first), and
        the language its schedule posts in."""
        row = await self._db.fetch_one(_THREAD, (item, server, channel.channel))
        if row is None:
            return None
        where = ChannelRef(str(row[0]), str(row[1]), str(row[2]) or None)
        return MessageRef(where, str(row[3])), Locale.parse(str(row[4]))


class _Undo(Exception):
    """Raised inside a transaction to roll it back."""


def _answer(row: Row) -> GroupAnswer:
    return GroupAnswer(
        id=int(row[0]), item=str(row[1]), server=str(row[2]), platform=str(row[3]),
        author_id=row[4], author_name=row[5], text=str(row[6]),
        created_at=datetime.fromisoformat(str(row[7])), state=str(row[8]),
    )  # fmt: skip
