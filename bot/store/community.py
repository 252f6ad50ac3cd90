"""The community bank's rows: a server's own items, their review, and reports that ask.

A server's item is a row of `questions` like any (so every serving path reads it through
`bot.store.questions`), with `server` set to `ChannelRef.server` and an id of the form
`s.<slug>`: a bank id is a slug (a-z, 0-9, '-'), so the two never meet, and a later bank
item with the same slug still loads. Its `server_items` row says where it stands:

    draft      questions.status 'draft': stored, never served, listed by `/drafts`
    published  questions.status 'published', indexed for search: served in its server
    rejected   questions.retired 1: kept (user rows may point at it), never served

A report that asks a question the bank or the server already has adds a `question_asks`
row instead (the bank's rows are rewritten by content loads, so its sources cannot be):
one per question, server and report, the report known by the digest of its text.
`report_imports` counts each member's imports for the rate limit.

Every write that belongs together is one transaction: an import's drafts, links and count;
a decision and its search row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.store.db import Database
from bot.store.ingest import search_row
from bot.store.search_index import index_for
from bot.types import Difficulty, Kind, Question, Source, User

PREFIX = "s."  # a server item's id; never a bank id (a slug has no dot)
# pg_advisory_xact_lock's key for "recording an import": "studycom" in ASCII.
_IMPORT_LOCK = int.from_bytes(b"studycom", "big") & 0x7FFF_FFFF_FFFF_FFFF


@dataclass(frozen=True, slots=True)
class NewItem:
    """A question of a report that nothing matched: stored as a draft of its server."""

    id: str
    title: str
    kind: Kind
    topics: tuple[str, ...]
    text: str  # what the report said about it ("" if nothing)
    answer: str  # the explanation stored with it (the text, or a note that there is none)


@dataclass(frozen=True, slots=True)
class Shared:
    """One report a member shares with a server: where it came from, who, when."""

    server: str
    digest: str
    source: Source
    member: User
    at: datetime


@dataclass(frozen=True, slots=True)
class DraftInfo:
    """What a moderator reviews besides the item itself."""

    question_id: str
    state: str
    report_text: str
    shared_name: str | None  # None once the member asked to be forgotten
    shared_at: str


@dataclass(frozen=True, slots=True)
class Changes:
    """A moderator's edit of a draft; None leaves a field as it is."""

    title: str | None = None
    title_en: str | None = None
    topics: tuple[str, ...] | None = None
    difficulty: Difficulty | None = None
    kind: Kind | None = None


class CommunityStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def known(self, server: str) -> list[tuple[str, Kind, str]]:
        """(id, kind, title) of what a new question could repeat: the shared bank's items
        (drafts too, not retired) and every item of `server`'s, rejected ones included (a
        rejected question shared again is linked to its verdict, not drafted again)."""
        rows = await self._db.fetch_all(
            """SELECT id, kind, title FROM questions
                WHERE (server IS NULL AND retired = 0) OR server = ? ORDER BY id""",
            (server,),
        )
        return [(str(r[0]), Kind(r[1]), str(r[2])) for r in rows]

    async def taken_ids(self) -> set[str]:
        """Every server item's id, whatever its server or state (ids are global)."""
        sql = "SELECT id FROM questions WHERE server IS NOT NULL"
        return {str(row[0]) for row in await self._db.fetch_all(sql)}

    async def imports_since(self, member: User, since: datetime) -> int:
        row = await self._db.fetch_one(
            """SELECT count(*) FROM report_imports
                WHERE platform = ? AND user_id = ? AND imported_at > ?""",
            (member.platform, member.id, since.isoformat()),
        )
        return int(row[0]) if row else 0

    async def record(self, shared: Shared, items: Sequence[NewItem], asked: Sequence[str]) -> bool:
        """One import, in one transaction: its new items as drafts, its links to existing
        items (a report links a question once, however often it is imported), its count.

        Imports write one at a time (SQLite's one writer; a transaction-level advisory lock
        on PostgreSQL), and False, writing nothing, if an import that committed meanwhile
        took one of the new ids: the caller plans again against what is there now."""
        async with self._db.transaction():
            if self._db.engine == "postgres":
                await self._db.fetch_one("SELECT pg_advisory_xact_lock(?)", (_IMPORT_LOCK,))
            if await self._taken([item.id for item in items]):
                return False
            await self._db.execute(
                """INSERT INTO report_imports (platform, user_id, server, digest, imported_at)
                   VALUES (?, ?, ?, ?, ?)""",
                (shared.member.platform, shared.member.id, shared.server, shared.digest,
                 shared.at.isoformat()),
            )  # fmt: skip
            await self._drafts(shared, items)
            await self._asks(shared, asked)
        return True

    async def _taken(self, ids: Sequence[str]) -> bool:
        if not ids:
            return False
        marks = ",".join("?" * len(ids))
        sql = f"SELECT 1 FROM questions WHERE id IN ({marks}) LIMIT 1"
        return await self._db.fetch_one(sql, ids) is not None

    async def _drafts(self, shared: Shared, items: Sequence[NewItem]) -> None:
        if not items:
            return
        await self._db.executemany(
            """INSERT INTO questions (id, title, kind, difficulty, answer, prompt, content_hash,
                                      status, server)
               VALUES (?, ?, ?, 'medium', ?, ?, '', 'draft', ?)""",
            [(i.id, i.title, i.kind.value, i.answer, i.title if i.kind is Kind.CODING else None,
              shared.server) for i in items],
        )  # fmt: skip
        await self._db.executemany(
            "INSERT INTO question_topics (question_id, topic) VALUES (?, ?)",
            [(i.id, topic) for i in items for topic in i.topics],
        )
        s = shared.source
        await self._db.executemany(
            """INSERT INTO question_sources
                   (question_id, position, document, title, company, role, round)
               VALUES (?, 0, ?, ?, ?, ?, ?)""",
            [(i.id, s.document, s.title, s.company, s.role, s.round) for i in items],
        )
        await self._db.executemany(
            """INSERT INTO server_items (question_id, server, state, report, report_text,
                                         shared_platform, shared_by, shared_name, shared_at)
               VALUES (?, ?, 'draft', ?, ?, ?, ?, ?, ?)""",
            [(i.id, shared.server, shared.digest, i.text, shared.member.platform,
              shared.member.id, shared.member.display_name, shared.at.isoformat())
             for i in items],
        )  # fmt: skip

    async def _asks(self, shared: Shared, asked: Sequence[str]) -> None:
        s, who = shared.source, shared.member
        await self._db.executemany(
            """INSERT INTO question_asks (question_id, server, digest, title, company, role,
                                          round, shared_platform, shared_by, shared_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING""",
            [(qid, shared.server, shared.digest, s.title, s.company, s.role, s.round,
              who.platform, who.id, shared.at.isoformat()) for qid in dict.fromkeys(asked)],
        )  # fmt: skip

    async def drafts(self, server: str) -> list[str]:
        """The ids of `server`'s drafts, oldest first: the order `/drafts` pages through."""
        rows = await self._db.fetch_all(
            """SELECT question_id FROM server_items WHERE server = ? AND state = 'draft'
                ORDER BY shared_at, question_id""",
            (server,),
        )
        return [str(row[0]) for row in rows]

    async def info(self, server: str, question_id: str) -> DraftInfo | None:
        """The review row of `server`'s item `question_id` (None: not this server's)."""
        row = await self._db.fetch_one(
            """SELECT question_id, state, report_text, shared_name, shared_at FROM server_items
                WHERE server = ? AND question_id = ?""",
            (server, question_id),
        )
        if row is None:
            return None
        return DraftInfo(str(row[0]), str(row[1]), str(row[2]), row[3], str(row[4]))

    async def publish(self, question: Question, moderator: User, at: datetime) -> bool:
        """Serve a draft in its server, indexed for search; False if it was no longer a draft
        (another moderator decided first)."""
        async with self._db.transaction():
            if not await self._decide(question.id, "published", moderator, at):
                return False
            await self._db.execute(
                "UPDATE questions SET status = 'published' WHERE id = ?", (question.id,)
            )
            await index_for(self._db).replace([search_row(question)])
        return True

    async def reject(self, question_id: str, moderator: User, at: datetime) -> bool:
        """Retire a draft: kept, never served; False if it was no longer a draft."""
        async with self._db.transaction():
            if not await self._decide(question_id, "rejected", moderator, at):
                return False
            await self._db.execute("UPDATE questions SET retired = 1 WHERE id = ?", (question_id,))
        return True

    async def _decide(self, question_id: str, state: str, moderator: User, at: datetime) -> bool:
        row = await self._db.fetch_one(
            """UPDATE server_items SET state = ?, decided_by = ?, decided_at = ?
                WHERE question_id = ? AND state = 'draft' RETURNING question_id""",
            (state, moderator.id, at.isoformat(), question_id),
        )
        return row is not None

    async def edit(self, question_id: str, changes: Changes) -> None:
        """Apply a moderator's edit to a draft (topics replaced whole)."""
        fields = {"title": changes.title, "title_en": changes.title_en,
                  "difficulty": changes.difficulty and changes.difficulty.value,
                  "kind": changes.kind and changes.kind.value}  # fmt: skip
        setting = {k: v for k, v in fields.items() if v is not None}
        async with self._db.transaction():
            if setting:
                assigned = ", ".join(f"{column} = ?" for column in setting)
                await self._db.execute(
                    f"UPDATE questions SET {assigned} WHERE id = ? AND status = 'draft'",
                    (*setting.values(), question_id),
                )
            if changes.topics is not None:
                await self._topics(question_id, changes.topics)
            await self._db.execute(  # a problem shows its statement: the title, until written
                "UPDATE questions SET prompt = coalesce(prompt, title) WHERE id = ? AND kind = ?",
                (question_id, Kind.CODING.value),
            )

    async def _topics(self, question_id: str, topics: tuple[str, ...]) -> None:
        await self._db.execute("DELETE FROM question_topics WHERE question_id = ?", (question_id,))
        await self._db.executemany(
            "INSERT INTO question_topics (question_id, topic) VALUES (?, ?)",
            [(question_id, topic) for topic in topics],
        )
