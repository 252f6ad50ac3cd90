"""Writing the bank into SQLite: one transaction, rows updated in place by stable id.

Only questions whose content changed are rewritten (a hash of the whole `Question` says so),
along with their topics, sources and search row. Drafts are stored like any item, with no
search row: the store never serves them. Questions that left the bank are marked
`retired` rather than deleted, so user rows that point at them stay valid. Either the whole
bank lands or, on any error, none of it does.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

from bot.search.tokens import index_text
from bot.store import quiz_json
from bot.store.database import transaction
from bot.types import Question, Status

FINGERPRINT_KEY = "content_fingerprint"


@dataclass(frozen=True, slots=True)
class LoadReport:
    added: int
    updated: int
    unchanged: int
    retired: int

    def summary(self) -> str:
        return (
            f"content loaded: {self.added} added, {self.updated} updated, "
            f"{self.unchanged} unchanged, {self.retired} retired"
        )


async def sync_bank(
    db: aiosqlite.Connection, questions: Sequence[Question], fingerprint: str
) -> LoadReport:
    async with transaction(db):
        async with db.execute("SELECT id, content_hash, retired FROM questions") as cursor:
            existing = {row[0]: (row[1], bool(row[2])) async for row in cursor}
        hashes = await asyncio.to_thread(lambda: [content_hash(q) for q in questions])
        changed = [
            (q, digest)
            for q, digest in zip(questions, hashes, strict=True)
            if existing.get(q.id) != (digest, False)
        ]
        await _write(db, changed)
        retired = await _retire(db, set(existing) - {q.id for q in questions})
        await db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (FINGERPRINT_KEY, fingerprint),
        )
    added = sum(1 for q, _ in changed if q.id not in existing)
    return LoadReport(added, len(changed) - added, len(questions) - len(changed), retired)


async def stored_fingerprint(db: aiosqlite.Connection) -> str | None:
    async with db.execute("SELECT value FROM meta WHERE key = ?", (FINGERPRINT_KEY,)) as cursor:
        row = await cursor.fetchone()
    return str(row[0]) if row else None


def content_hash(question: Question) -> str:
    # The frozen dataclass's repr lists every field, nested sources included, in a fixed
    # order: a stable digest at a fraction of the cost of asdict() + JSON.
    return hashlib.sha256(repr(question).encode()).hexdigest()


async def _write(db: aiosqlite.Connection, changed: list[tuple[Question, str]]) -> None:
    """Upsert changed questions and rebuild their topics, sources and search rows.

    Batched with executemany: a statement per question per table would cost a thread hop
    each through aiosqlite, which dominated a 10,000-question load.
    """
    if not changed:
        return
    await db.executemany(_UPSERT, [_row(q, digest) for q, digest in changed])
    async with db.execute("SELECT id, rowid FROM questions") as cursor:
        rowids = {row[0]: int(row[1]) async for row in cursor}
    ids = [(q.id,) for q, _ in changed]
    await db.executemany("DELETE FROM question_topics WHERE question_id = ?", ids)
    await db.executemany(
        "INSERT INTO question_topics (question_id, topic) VALUES (?, ?)",
        [(q.id, topic) for q, _ in changed for topic in q.topics],
    )
    await db.executemany("DELETE FROM question_sources WHERE question_id = ?", ids)
    await db.executemany(
        """INSERT INTO question_sources
               (question_id, position, document, title, company, role, round)
           VALUES (?, ?, ?, ?, ?, ?, ?)""",
        [(q.id, i, s.document, s.title, s.company, s.role, s.round)
         for q, _ in changed for i, s in enumerate(q.sources)],
    )  # fmt: skip
    await db.executemany(
        "DELETE FROM question_search WHERE rowid = ?", [(rowids[q.id],) for q, _ in changed]
    )
    served = [q for q, _ in changed if q.status is Status.PUBLISHED]
    search_rows = await asyncio.to_thread(
        lambda: [(rowids[q.id], *_search_columns(q)) for q in served]
    )
    await db.executemany(
        "INSERT INTO question_search (rowid, title, body) VALUES (?, ?, ?)", search_rows
    )


_UPSERT = """
    INSERT INTO questions
        (id, title, title_en, kind, difficulty, prompt, answer, signature, content_hash,
         answer_en, prompt_en, quiz, related, status, hints)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET
        title = excluded.title, title_en = excluded.title_en, kind = excluded.kind,
        difficulty = excluded.difficulty, prompt = excluded.prompt, answer = excluded.answer,
        signature = excluded.signature, content_hash = excluded.content_hash, retired = 0,
        answer_en = excluded.answer_en, prompt_en = excluded.prompt_en,
        quiz = excluded.quiz, related = excluded.related, status = excluded.status,
        hints = excluded.hints"""


def _row(q: Question, digest: str) -> tuple[str | None, ...]:
    return (q.id, q.title, q.title_en, q.kind.value, q.difficulty.value, q.prompt, q.answer,
            q.signature, digest, q.answer_en, q.prompt_en, quiz_json.dumps(q.quiz),
            json.dumps(list(q.related)), q.status.value,
            quiz_json.dumps_hints(q.hints))  # fmt: skip


def _search_columns(q: Question) -> tuple[str, str]:
    """Both languages are searched: `/search KV cache` finds an item by its English too."""
    title = " ".join(filter(None, (q.title, q.title_en, q.id.replace("-", " "))))
    body = " ".join(filter(None, (" ".join(q.topics), q.prompt, q.answer, q.prompt_en,
                                  q.answer_en)))  # fmt: skip
    return index_text(title), index_text(body)


async def _retire(db: aiosqlite.Connection, gone: set[str]) -> int:
    retired = 0
    for question_id in sorted(gone):
        async with db.execute(
            "UPDATE questions SET retired = 1 WHERE id = ? AND retired = 0 RETURNING rowid",
            (question_id,),
        ) as cursor:
            row = await cursor.fetchone()
        if row is not None:
            retired += 1
            await db.execute("DELETE FROM question_search WHERE rowid = ?", (row[0],))
    return retired
