"""What `studybot content export` reads: a server's approved items, and which servers have items.

An approved item is a `server_items` row in state `published` whose question is not retired;
drafts and rejected items are never read here. Each comes with what the bank's file format
needs besides the `Question` itself (read through `bot.store.questions`, as every serving
path reads it):

    explained   whether the report said anything about it: an item whose report gave no
                answer is stored with a placeholder explanation (`bot.community.plan`)
    asked_in    the other reports of its server that asked it (`question_asks`), oldest
                first, each as a `Source` whose document is `report-<12 hex digits>` of the
                report's digest (the name an unnamed report gets on import): the file's name
                is not kept for a link. The report the item was drafted from is not repeated.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.db import Database
from bot.store.questions import QuestionStore
from bot.types import Question, Source

UNNAMED = "report-{digest:.12}"  # as bot.community.imports names a report pasted as text


@dataclass(frozen=True, slots=True)
class ServerItem:
    question: Question
    explained: bool
    asked_in: tuple[Source, ...] = ()


@dataclass(frozen=True, slots=True)
class ServerCounts:
    """A server that has items, and how many are in each state."""

    server: str
    approved: int
    drafts: int
    rejected: int


class ExportStore:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._questions = QuestionStore(db)

    async def servers(self) -> list[ServerCounts]:
        """Every server with at least one item, whatever its state, by server key."""
        rows = await self._db.fetch_all(
            """SELECT server,
                      sum(CASE WHEN state = 'published' THEN 1 ELSE 0 END),
                      sum(CASE WHEN state = 'draft' THEN 1 ELSE 0 END),
                      sum(CASE WHEN state = 'rejected' THEN 1 ELSE 0 END)
                 FROM server_items GROUP BY server ORDER BY server"""
        )
        return [ServerCounts(str(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in rows]

    async def approved(self, server: str) -> list[ServerItem]:
        """`server`'s approved items, by id."""
        rows = await self._db.fetch_all(
            """SELECT s.question_id, s.report, s.report_text FROM server_items s
                 JOIN questions q ON q.id = s.question_id
                WHERE s.server = ? AND s.state = 'published' AND q.retired = 0
                ORDER BY s.question_id""",
            (server,),
        )
        items = []
        for row in rows:
            question = await self._questions.get(str(row[0]), server=server)
            if question is not None:
                asked = await self._asked_in(question.id, server, str(row[1]))
                items.append(ServerItem(question, bool(str(row[2]).strip()), asked))
        return items

    async def _asked_in(self, qid: str, server: str, own: str) -> tuple[Source, ...]:
        rows = await self._db.fetch_all(
            """SELECT digest, title, company, role, round FROM question_asks
                WHERE question_id = ? AND server = ? AND digest <> ?
                ORDER BY shared_at, digest""",
            (qid, server, own),
        )
        return tuple(Source(UNNAMED.format(digest=str(r[0])), str(r[1]), r[2], r[3], r[4])
                     for r in rows)  # fmt: skip
