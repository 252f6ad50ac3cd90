"""Everything the bot holds on one member, counted and forgotten (`/forget me`).

`PERSONAL` lists every table that keeps rows about a member, keyed by (platform, user_id);
a test fails if a table with a `user_id` column is missing from it, so a new kind of record
cannot outlive a member's request to be forgotten. Schedules and posts belong to channels,
not members, and stay.

What a member shared with a server (`SHARED`: the questions of their reports, drafts and
published items, and the reports that asked a question the bank had) belongs to the server
too: it stays, without the member's name or id.

A reported mistake (`mistake_reports`) is about the bank, not its reporter: forgetting a
member clears their id and name from the reports they filed or resolved (`ANONYMISED`), and
the text stays for the bank's sake.

An answer a member gave to an open question (`group_answers`) goes with them while it waits;
once a moderator adopted it, it is the server's explanation and stays, without their id and
name ("Answer by a former member"): `_UNADOPTED` deletes the first, `ANONYMISED` clears the
second.
"""

from __future__ import annotations

from bot.store.boards import FORGETS
from bot.store.db import Database
from bot.types import User

PERSONAL = (
    "submissions",
    "quiz_answers",
    "hints_taken",
    "answer_reveals",
    "activity",
    "cards",
    "reviews",
    "questions_seen",
    "member_settings",
    "report_imports",
)
# Tables whose rows a member shared, keyed by (shared_platform, shared_by): kept, unnamed.
SHARED = {"server_items": ("shared_by", "shared_name"), "question_asks": ("shared_by",)}
# A moderator's decisions stay too (a server's items are its members'), without their id.
_UNDECIDED = """UPDATE server_items SET decided_by = NULL
                 WHERE shared_platform = ? AND decided_by = ?"""
# Tables whose rows outlive a member, their name and id cleared: how a row names its member.
ANONYMISED = {
    "mistake_reports": ("reporter_platform", "reporter_id", "reporter_name"),
    "group_answers": ("author_platform", "author_id", "author_name"),
}
# A member's answers not adopted are theirs alone: deleted, before the adopted ones are unnamed.
_UNADOPTED = """DELETE FROM group_answers
                 WHERE author_platform = ? AND author_id = ? AND state = 'open'"""


class MemberData:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def held(self, user: User) -> dict[str, int]:
        """How many rows each personal table holds on `user`."""
        counts = {}
        for table in PERSONAL:
            sql = f"SELECT count(*) FROM {table} WHERE platform = ? AND user_id = ?"
            row = await self._db.fetch_one(sql, (user.platform, user.id))
            counts[table] = int(row[0]) if row else 0
        for table, (platform, member, _) in ANONYMISED.items():
            sql = f"SELECT count(*) FROM {table} WHERE {platform} = ? AND {member} = ?"
            row = await self._db.fetch_one(sql, (user.platform, user.id))
            counts[table] = int(row[0]) if row else 0
        return counts

    async def forget(self, user: User) -> dict[str, int]:
        """Delete every row about `user` and clear their name and id where a row stays, in
        one transaction; how many rows went or were cleared in each table."""
        deleted = {}
        async with self._db.transaction():
            for table in PERSONAL:
                deleted[table] = await self._db.execute(
                    f"DELETE FROM {table} WHERE platform = ? AND user_id = ?",
                    (user.platform, user.id),
                )
            for table, columns in SHARED.items():
                unnamed = ", ".join(f"{column} = NULL" for column in columns)
                await self._db.execute(
                    f"UPDATE {table} SET {unnamed} WHERE shared_platform = ? AND shared_by = ?",
                    (user.platform, user.id),
                )
            await self._db.execute(_UNDECIDED, (user.platform, user.id))
            unadopted = await self._db.execute(_UNADOPTED, (user.platform, user.id))
            for table, (platform, member, name) in ANONYMISED.items():
                deleted[table] = await self._db.execute(
                    f"UPDATE {table} SET {member} = NULL, {name} = NULL "
                    f"WHERE {platform} = ? AND {member} = ?",
                    (user.platform, user.id),
                )
            deleted["group_answers"] += unadopted
            await self._db.execute(_RESOLVER_FORGOTTEN, (user.platform, user.id))
            await self._db.execute(_ADOPTER_FORGOTTEN, (user.platform, user.id))
            await self._db.execute(_COUNT_FORGET, (FORGETS,))
        return deleted


# Every process's warm leaderboards watch this count and start again when it moves.
_COUNT_FORGET = """INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT (key) DO UPDATE
                   SET value = CAST(CAST(meta.value AS INTEGER) + 1 AS TEXT)"""

# A moderator forgotten: the reports they resolved keep the note, not who wrote it (a report
# is resolved in its own server, so on the reporter's platform).
_RESOLVER_FORGOTTEN = """UPDATE mistake_reports SET resolver_id = NULL, resolver_name = NULL
                         WHERE reporter_platform = ? AND resolver_id = ?"""

# A moderator forgotten: the answers they adopted stay adopted, not by whom (an answer is
# adopted in its own server, so on its author's platform).
_ADOPTER_FORGOTTEN = """UPDATE group_answers SET adopted_by = NULL
                        WHERE author_platform = ? AND adopted_by = ?"""
