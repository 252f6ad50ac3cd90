"""The question repository: lookups, random picks, topics and full-text search.

Reads only; the content loader (`bot.store.ingest`) is the one writer of question rows.
Only live, published questions are served: retired rows and drafts are left out of every
pick, list and search. `get` finds a draft only when asked (`drafts=True`), so a lookup can
say "that one is a draft" rather than "no such question".
Every query is parameterised; user text reaches FTS5 only as quoted tokens
(`bot.search.tokens.match_expression`).
"""

from __future__ import annotations

import json
import math
import random
import re
import unicodedata
from collections.abc import Iterable

import aiosqlite

from bot.search.tokens import match_expression, query_tokens
from bot.store import quiz_json
from bot.store.database import fetch_all, fetch_one
from bot.types import Difficulty, Kind, Question, SearchHit, Source, Status, TopicCount, User

# Markdown marks dropped from snippets; an underscore inside a word (max_memory_allocated) stays.
LIVE = "retired = 0 AND status = 'published'"
RERANK = 2  # title matches scored again on the whole text, per result wanted
_MARKUP = re.compile(r"[|#*`>]+|(?<!\w)_+|_+(?!\w)|-{3,}")
# One round trip per question: topics and sources come along as JSON arrays.
_COLUMNS = """rowid, id, title, title_en, kind, difficulty, prompt, answer, signature,
    answer_en, prompt_en, quiz, related, status, hints,
    (SELECT json_group_array(topic) FROM question_topics t
     WHERE t.question_id = questions.id) AS topics,
    (SELECT json_group_array(json_array(document, title, company, role, round))
     FROM (SELECT * FROM question_sources s WHERE s.question_id = questions.id
           ORDER BY position)) AS sources"""


class QuestionStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def get(
        self, question_id: str, *, retired: bool = False, drafts: bool = False
    ) -> Question | None:
        """The live question `question_id`; with `drafts`, also a draft; with `retired`, any
        row the bank ever had (a post made before it left must still find it)."""
        sql = f"SELECT {_COLUMNS} FROM questions WHERE id = ?"
        if not retired:
            sql += " AND retired = 0" if drafts else f" AND {LIVE}"
        row = await fetch_one(self._db, sql, (question_id,))
        return _question(row) if row else None

    async def pick(
        self,
        rng: random.Random,
        *,
        kind: Kind | None = None,
        topic: str | None = None,
        difficulty: Difficulty | None = None,
    ) -> Question | None:
        """A uniformly random live question, optionally of one kind, topic and difficulty."""
        where, params = live_filters(kind, topic, difficulty)
        row = await fetch_one(self._db, f"SELECT count(*) FROM questions WHERE {where}", params)
        count = int(row[0]) if row else 0
        if count == 0:
            return None
        sql = f"SELECT {_COLUMNS} FROM questions WHERE {where} ORDER BY id LIMIT 1 OFFSET ?"
        picked = await fetch_one(self._db, sql, (*params, rng.randrange(count)))
        return _question(picked) if picked else None

    async def browse(
        self,
        *,
        kind: Kind | None = None,
        topic: str | None = None,
        difficulty: Difficulty | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> tuple[int, list[Question]]:
        """How many live questions match, and `limit` of them from `offset`: easiest first,
        then by id, so pages are stable while the bank is unchanged."""
        where, params = live_filters(kind, topic, difficulty)
        row = await fetch_one(self._db, f"SELECT count(*) FROM questions WHERE {where}", params)
        order = "CASE difficulty WHEN 'easy' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END, id"
        sql = f"SELECT {_COLUMNS} FROM questions WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?"
        found = await fetch_all(self._db, sql, (*params, limit, offset))
        return (int(row[0]) if row else 0), [_question(r) for r in found]

    async def ids_matching(
        self, *, kind: Kind | None = None, topic: str | None = None
    ) -> list[str]:
        where, params = live_filters(kind, topic)
        found = await fetch_all(self._db, f"SELECT id FROM questions WHERE {where}", params)
        return [row[0] for row in found]

    async def topics(self) -> list[TopicCount]:
        sql = """SELECT t.topic, count(*) FROM question_topics t
                 JOIN questions q ON q.id = t.question_id
                      AND q.retired = 0 AND q.status = 'published'
                 GROUP BY t.topic ORDER BY count(*) DESC, t.topic"""
        return [TopicCount(row[0], int(row[1])) for row in await fetch_all(self._db, sql)]

    async def topic_exists(self, topic: str) -> bool:
        sql = """SELECT 1 FROM question_topics t JOIN questions q ON q.id = t.question_id
                  WHERE t.topic = ? AND q.retired = 0 AND q.status = 'published' LIMIT 1"""
        return await fetch_one(self._db, sql, (topic,)) is not None

    async def titles(self, kind: Kind | None = None) -> list[tuple[str, str, str | None]]:
        """(id, title, English title) of every live question, by id: what autocomplete offers."""
        where, params = live_filters(kind, None)
        sql = f"SELECT id, title, title_en FROM questions WHERE {where} ORDER BY id"
        return [(row[0], row[1], row[2]) for row in await fetch_all(self._db, sql, params)]

    async def ids(self) -> list[str]:
        found = await fetch_all(self._db, f"SELECT id FROM questions WHERE {LIVE}")
        return [row[0] for row in found]

    async def search(self, query: str, limit: int = 5) -> list[SearchHit]:
        """Best matches first: questions whose title matches, then those whose text does.

        BM25 costs a few microseconds per matching row, so ranking every body match of a
        common word (通信 in a third of 10,000 questions) would blow the latency budget.
        Title matches are few and are the best answers anyway; body matches are ranked only
        when titles alone cannot fill the page. See bench/ for the figures.
        """
        expression = match_expression(query)
        if expression is None:
            return []
        titles = await self._title_matches(f"title : ({expression})", query, limit * RERANK)
        rowids = [rowid for rowid, _ in sorted(titles, key=lambda pair: pair[1])][:limit]
        if len(rowids) < limit:
            rowids += await self._ranked(expression, limit - len(rowids), tuple(rowids))
        if not rowids:
            return []
        marks = ",".join("?" * len(rowids))
        columns = "rowid, id, title, kind, answer, prompt"
        sql = f"SELECT {columns} FROM questions WHERE rowid IN ({marks})"
        rows = {row[0]: row for row in await fetch_all(self._db, sql, rowids)}
        terms = [*query.lower().split(), *query_tokens(query)]  # as typed first: shared_memory
        return [
            SearchHit(r[1], r[2], Kind(r[3]), snippet(r[5] or r[4], terms))
            for r in (rows[rowid] for rowid in rowids if rowid in rows)
        ]

    async def _title_matches(self, expression: str, query: str,
                             limit: int) -> list[tuple[int, float]]:  # fmt: skip
        """The best title matches, each scored with its text too: of two titles that say
        GIL, the question whose explanation is about it comes first. The score is the
        title's BM25 less log(1 + how often the explanation says the query's words); SQLite
        counts the words on these few rows only (asking FTS5 to score both columns would
        scan every body match of the words: 3 to 7 ms on 10,000 questions)."""
        words = sorted({_folded(w) for w in query.split()} - {""})
        text = ("replace(replace(lower(coalesce(q.answer, '') || ' ' || coalesce(q.prompt, '') "
                "|| ' ' || coalesce(q.answer_en, '')), '-', ''), '_', '')")  # fmt: skip
        said = " + ".join(f"(length({text}) - length(replace({text}, ?, ''))) / length(?)"
                          for _ in words) or "0"  # fmt: skip
        sql = f"""SELECT m.rowid, m.score, {said} FROM (
                      SELECT rowid, bm25(question_search, 8.0, 1.0) AS score
                      FROM question_search WHERE question_search MATCH ? ORDER BY score LIMIT ?
                  ) AS m JOIN questions AS q ON q.rowid = m.rowid"""
        params = [v for w in words for v in (w, w)]
        found = await fetch_all(self._db, sql, (*params, expression, limit))
        return [(int(r[0]), float(r[1]) - math.log1p(int(r[2] or 0))) for r in found]

    async def _ranked(self, expression: str, limit: int, exclude: tuple[int, ...]) -> list[int]:
        skip = f"AND rowid NOT IN ({','.join('?' * len(exclude))})" if exclude else ""
        sql = f"""SELECT rowid FROM question_search WHERE question_search MATCH ? {skip}
                  ORDER BY bm25(question_search, 8.0, 1.0) LIMIT ?"""
        found = await fetch_all(self._db, sql, (expression, *exclude, limit))
        return [int(row[0]) for row in found]

    async def record_hint(self, user: User, problem_id: str, level: int, at: str) -> None:
        """Remember the first time `user` took hint `level` of a problem."""
        await self._db.execute(
            """INSERT INTO hints_taken (platform, user_id, problem_id, level, taken_at)
               VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING""",
            (user.platform, user.id, problem_id, level, at),
        )

    async def record_reveal(self, user: User, question_id: str, at: str) -> None:
        await self._db.execute(
            """INSERT INTO answer_reveals (platform, user_id, question_id, revealed_at)
               VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING""",
            (user.platform, user.id, question_id, at),
        )


def _folded(text: str) -> str:
    """NFKC, lower case, no hyphens or underscores: All-Reduce, all_reduce, allreduce and
    ＡＬＬＲＥＤＵＣＥ agree."""
    return unicodedata.normalize("NFKC", text).lower().replace("-", "").replace("_", "")


def _question(row: aiosqlite.Row) -> Question:
    sources = tuple(Source(*fields) for fields in json.loads(row["sources"]))
    return Question(
        id=row["id"], title=row["title"], title_en=row["title_en"], kind=Kind(row["kind"]),
        difficulty=Difficulty(row["difficulty"]), topics=tuple(sorted(json.loads(row["topics"]))),
        sources=sources, answer=row["answer"], prompt=row["prompt"], signature=row["signature"],
        answer_en=row["answer_en"], prompt_en=row["prompt_en"], quiz=quiz_json.loads(row["quiz"]),
        related=tuple(json.loads(row["related"])), status=Status(row["status"]),
        hints=quiz_json.loads_hints(row["hints"]),
    )  # fmt: skip


def live_filters(kind: Kind | None, topic: str | None,
                 difficulty: Difficulty | None = None) -> tuple[str, tuple[str, ...]]:  # fmt: skip
    """The WHERE clause (unqualified columns of `questions`) that serves live questions
    matching the filters, and its parameters."""
    clauses, params = [LIVE], list[str]()
    if kind is not None:
        clauses.append("kind = ?")
        params.append(kind.value)
    if difficulty is not None:
        clauses.append("difficulty = ?")
        params.append(difficulty.value)
    if topic is not None:
        clauses.append("id IN (SELECT question_id FROM question_topics WHERE topic = ?)")
        params.append(topic)
    return " AND ".join(clauses), tuple(params)


def snippet(text: str, terms: Iterable[str], width: int = 60) -> str:
    """A one-line excerpt of `text` around the first query term it contains.

    Only a window of the raw text around the term is cleaned of Markdown: cleaning a whole
    explanation (several kilobytes) cost most of a search."""
    wanted = [t.lower() for t in terms]
    lowered = text.lower()
    found = [p for p in (lowered.find(t) for t in wanted) if p >= 0]
    low = max(0, min(found) - 4 * width) if found else 0
    high = low + 12 * width
    flat = " ".join(_MARKUP.sub(" ", text[low:high]).split())
    positions = [p for p in (flat.lower().find(t) for t in wanted) if p >= 0]
    start = max(0, min(positions) - width // 3) if positions else 0
    excerpt = flat[start : start + width]
    prefix = "…" if start > 0 or low > 0 else ""
    suffix = "…" if start + width < len(flat) or high < len(text) else ""
    return f"{prefix}{excerpt}{suffix}"
