"""The question repository: lookups, random picks, topics and full-text search.

Reads only; the content loader (`bot.store.ingest`) is the one writer of question rows.
Only live, published questions are served: retired rows and drafts are left out of every
pick, list and search. `get` finds a draft only when asked (`drafts=True`), so a lookup can
say "that one is a draft" rather than "no such question".

Servers. Besides the shared bank (`server` NULL), a server has its own items
(`bot.store.community`). Every serving call takes the asking channel's `server`
(`ChannelRef.server`) and serves the shared bank plus that server's published items, never
another server's; a call given no server serves the shared bank only, the safe default.

One store over both engines (`bot.store.db.Database`): every query is parameterised and
portable but one, a question's topics and sources gathered as JSON in the same round trip
(`_AGGREGATES`: SQLite's json_group_array, PostgreSQL's json_agg). Search goes to the
engine's index (`bot.store.search_index`), which answers with ids; the store reads those
questions by id. Lists are ordered by id: byte order on SQLite, and on PostgreSQL the
database's collation (the same under C or C.UTF-8). How often each question was asked is
counted by `bot.store.asked`, which these reads call and whose `asks` relation orders
`/questions sort:asked`.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Sequence

from bot.search.tokens import fold, query_tokens
from bot.store import quiz_json
from bot.store.asked import asked_of, asks_sql, counts_of
from bot.store.db import Database, Row
from bot.store.search_index import SearchIndex, index_for
from bot.types import (
    Asked,
    Difficulty,
    Kind,
    ListOrder,
    Locale,
    Question,
    SearchHit,
    Source,
    Status,
    TopicCount,
    User,
)

LIVE = "retired = 0 AND status = 'published'"
# The shared bank and one server's items (its key is the parameter; "" for none: no server
# key is empty). Constant text, so statements built over it are cached and prepared alike.
SERVED = "(server IS NULL OR server = ?)"
SERVED_HERE = f"{LIVE} AND {SERVED}"
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # a question id, or a hyphenated part of one
# Markdown marks dropped from snippets; an underscore inside a word (max_memory_allocated) stays.
_MARKUP = re.compile(r"[|#*`>]+|(?<!\w)_+|_+(?!\w)|-{3,}")
# One round trip per question: topics and sources come along as JSON arrays (as text).
_AGGREGATES = {
    "sqlite": """(SELECT json_group_array(topic) FROM question_topics t
                  WHERE t.question_id = questions.id) AS topics,
                 (SELECT json_group_array(json_array(document, title, company, role, round))
                  FROM (SELECT * FROM question_sources s WHERE s.question_id = questions.id
                        ORDER BY position)) AS sources""",
    "postgres": """(SELECT CAST(coalesce(json_agg(topic), '[]') AS TEXT) FROM question_topics t
                    WHERE t.question_id = questions.id) AS topics,
                   (SELECT CAST(coalesce(json_agg(json_build_array(document, title, company,
                                                                   role, round)
                                                  ORDER BY position), '[]') AS TEXT)
                    FROM question_sources s WHERE s.question_id = questions.id) AS sources""",
}
# Where a question goes in a listing, lowest first (ties by id).
_PLACES = {
    ListOrder.LEVEL: "CASE difficulty WHEN 'easy' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END",
    ListOrder.ASKED: "-coalesce(asked.reports, 0)",
}
_FIELDS = """id, title, title_en, kind, difficulty, prompt, answer, signature, answer_en,
    prompt_en, quiz, related, status, hints"""


class QuestionStore:
    def __init__(self, db: Database, index: SearchIndex | None = None) -> None:
        self._db = db
        self._index = index or index_for(db)
        self._columns = f"{_FIELDS}, {_AGGREGATES[db.engine]}"

    async def get(
        self,
        question_id: str,
        *,
        retired: bool = False,
        drafts: bool = False,
        server: str | None = None,
    ) -> Question | None:
        """The live question `question_id` served in `server`; with `drafts`, also a draft;
        with `retired`, any row the bank ever had, wherever (a post made before it left must
        still find it)."""
        sql, params = f"SELECT {self._columns} FROM questions WHERE id = ?", [question_id]
        if not retired:
            sql += f" AND retired = 0 AND {SERVED}" if drafts else f" AND {SERVED_HERE}"
            params.append(server or "")
        row = await self._db.fetch_one(sql, params)
        return _question(row) if row else None

    async def pick(
        self,
        rng: random.Random,
        *,
        kind: Kind | None = None,
        topic: str | None = None,
        difficulty: Difficulty | None = None,
        server: str | None = None,
    ) -> Question | None:
        """A uniformly random live question, optionally of one kind, topic and difficulty."""
        where, params = live_filters(kind, topic, difficulty, server)
        count = await self._count(where, params)
        if count == 0:
            return None
        sql = f"SELECT {self._columns} FROM questions WHERE {where} ORDER BY id LIMIT 1 OFFSET ?"
        picked = await self._db.fetch_one(sql, (*params, rng.randrange(count)))
        return _question(picked) if picked else None

    async def browse(
        self,
        *,
        kind: Kind | None = None,
        topic: str | None = None,
        difficulty: Difficulty | None = None,
        offset: int = 0,
        limit: int = 10,
        order: ListOrder = ListOrder.LEVEL,
        server: str | None = None,
    ) -> tuple[int, list[Question]]:
        """How many live questions match, and `limit` of them from `offset`: easiest first,
        or (`ListOrder.ASKED`) most often asked in `server` first; then by id, so pages are
        stable while the bank is unchanged.

        The page's ids are chosen first and only its rows read whole: a row's topics and
        sources are gathered per row, and sorting whole rows would gather them for every
        row before the page (a deep page cost ten times the first)."""
        where, params = live_filters(kind, topic, difficulty, server)
        count = await self._count(where, params)
        ctes, cte_params, join = "", tuple[str, ...](), ""
        if order is ListOrder.ASKED:  # the counts grouped once and joined (`bot.store.asked`)
            asks, cte_params = asks_sql(server)
            ctes = f"""{asks}, asked AS (SELECT question_id, count(DISTINCT report) AS reports
                                          FROM asks GROUP BY question_id),"""
            join = "LEFT JOIN asked ON asked.question_id = questions.id"
        sql = f"""WITH {ctes} page AS (SELECT id AS pid, {_PLACES[order]} AS place
                                       FROM questions {join} WHERE {where}
                                       ORDER BY place, id LIMIT ? OFFSET ?)
                  SELECT {self._columns} FROM page JOIN questions ON questions.id = page.pid
                  ORDER BY page.place, page.pid"""
        found = await self._db.fetch_all(sql, (*cte_params, *params, limit, offset))
        return count, [_question(r) for r in found]

    async def asked(self, question_id: str, server: str | None = None) -> Asked:
        """How often `question_id` was asked, as seen from `server` (`bot.store.asked`)."""
        return await asked_of(self._db, question_id, server)

    async def asked_counts(self, question_ids: Sequence[str],
                           server: str | None = None) -> dict[str, int]:  # fmt: skip
        """Distinct reports per question, for a listing, in one query (0s left out)."""
        return await counts_of(self._db, question_ids, server)

    async def ids_matching(
        self, *, kind: Kind | None = None, topic: str | None = None, server: str | None = None
    ) -> list[str]:
        where, params = live_filters(kind, topic, server=server)
        found = await self._db.fetch_all(f"SELECT id FROM questions WHERE {where}", params)
        return [str(row[0]) for row in found]

    async def topics(self, server: str | None = None) -> list[TopicCount]:
        sql = """SELECT t.topic, count(*) FROM question_topics t
                  JOIN questions q ON q.id = t.question_id AND q.retired = 0
                       AND q.status = 'published' AND (q.server IS NULL OR q.server = ?)
                  GROUP BY t.topic ORDER BY count(*) DESC, t.topic"""
        found = await self._db.fetch_all(sql, (server or "",))
        return [TopicCount(row[0], int(row[1])) for row in found]

    async def topic_exists(self, topic: str, server: str | None = None) -> bool:
        sql = """SELECT 1 FROM question_topics t JOIN questions q ON q.id = t.question_id
                  WHERE t.topic = ? AND q.retired = 0 AND q.status = 'published'
                    AND (q.server IS NULL OR q.server = ?) LIMIT 1"""
        return await self._db.fetch_one(sql, (topic, server or "")) is not None

    async def titles(
        self, kind: Kind | None = None, server: str | None = None
    ) -> list[tuple[str, str, str | None]]:
        """(id, title, English title) of every live question, by id: what autocomplete offers."""
        where, params = live_filters(kind, None, server=server)
        sql = f"SELECT id, title, title_en FROM questions WHERE {where} ORDER BY id"
        return [(row[0], row[1], row[2]) for row in await self._db.fetch_all(sql, params)]

    async def ids(self, server: str | None = None) -> list[str]:
        sql = f"SELECT id FROM questions WHERE {SERVED_HERE}"
        return [str(row[0]) for row in await self._db.fetch_all(sql, (server or "",))]

    async def search(self, query: str, limit: int = 5, locale: Locale = Locale.ZH,
                     server: str | None = None) -> list[SearchHit]:  # fmt: skip
        """Best matches first: an id as typed, then as the engine's index ranks them (title
        matches, then those whose text matches), each with its title and a snippet of its
        text around the query's words, in `locale`'s language where the item has it."""
        ids = await self._by_id(query, limit, server or "")
        ids += [i for i in await self._index.matching(query, limit, server) if i not in ids]
        ids = ids[:limit]
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        sql = f"""SELECT id, title, kind, answer, prompt, title_en, answer_en, prompt_en
                  FROM questions WHERE id IN ({marks})"""
        rows = {row[0]: row for row in await self._db.fetch_all(sql, ids)}
        terms = [*query.lower().split(), *query_tokens(query)]  # as typed first: shared_memory
        return [_hit(rows[i], terms, locale) for i in ids if i in rows]

    async def _by_id(self, query: str, limit: int, server: str) -> list[str]:
        """The question whose id `query` is, then, for a hyphenated query (`communication-cost`),
        those whose id holds it, shortest first: an id is found as typed, before any word
        match. (The index splits an id into words, so `python-gil` alone would miss it.)"""
        key = fold(query).strip().lower()
        if not _SLUG.fullmatch(key):
            return []
        if "-" not in key:
            sql = f"SELECT id FROM questions WHERE id = ? AND {SERVED_HERE}"
            row = await self._db.fetch_one(sql, (key, server))
            return [str(row[0])] if row else []
        sql = f"""SELECT id FROM questions WHERE id LIKE ? AND {SERVED_HERE}
                  ORDER BY length(id), id LIMIT ?"""  # the slug's characters: no LIKE wildcard
        found = await self._db.fetch_all(sql, (f"%{key}%", server, limit))
        return [str(row[0]) for row in found]

    async def _count(self, where: str, params: tuple[str, ...]) -> int:
        row = await self._db.fetch_one(f"SELECT count(*) FROM questions WHERE {where}", params)
        return int(row[0]) if row else 0

    async def record_hint(self, user: User, problem_id: str, level: int, at: str) -> None:
        """Remember the first time `user` took hint `level` of a problem."""
        await self._db.execute(
            """INSERT INTO hints_taken (platform, user_id, problem_id, level, taken_at)
               VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING""",
            (user.platform, user.id, problem_id, level, at),
        )

    async def hint_levels(self, user: User, problem_id: str) -> set[int]:
        """The hint levels of a problem `user` has taken."""
        rows = await self._db.fetch_all(
            """SELECT level FROM hints_taken
                WHERE platform = ? AND user_id = ? AND problem_id = ?""",
            (user.platform, user.id, problem_id),
        )
        return {int(row[0]) for row in rows}

    async def record_reveal(self, user: User, question_id: str, at: str) -> None:
        await self._db.execute(
            """INSERT INTO answer_reveals (platform, user_id, question_id, revealed_at)
               VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING""",
            (user.platform, user.id, question_id, at),
        )


def _question(row: Row) -> Question:
    columns = [row[i] for i in range(len(row))]
    (question_id, title, title_en, kind, difficulty, prompt, answer, signature, answer_en,
     prompt_en, quiz, related, status, hints, topics, sources) = columns  # fmt: skip
    return Question(
        id=question_id, title=title, title_en=title_en, kind=Kind(kind),
        difficulty=Difficulty(difficulty), topics=tuple(sorted(json.loads(topics))),
        sources=tuple(Source(*fields) for fields in json.loads(sources)), answer=answer,
        prompt=prompt, signature=signature, answer_en=answer_en, prompt_en=prompt_en,
        quiz=quiz_json.loads(quiz), related=tuple(json.loads(related)), status=Status(status),
        hints=quiz_json.loads_hints(hints),
    )  # fmt: skip


def live_filters(kind: Kind | None, topic: str | None, difficulty: Difficulty | None = None,
                 server: str | None = None) -> tuple[str, tuple[str, ...]]:  # fmt: skip
    """The WHERE clause (unqualified columns of `questions`) that serves live questions
    matching the filters in `server` (the shared bank only without one), and its
    parameters."""
    clauses, params = [SERVED_HERE], [server or ""]
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


def _hit(row: Row, terms: list[str], locale: Locale) -> SearchHit:
    """A search hit in English for an English reader when the item has English text (the
    snippet then around the query's words if the English says them, else its start)."""
    question_id, title, kind, answer, prompt, title_en, answer_en, prompt_en = (
        row[i] for i in range(8))  # fmt: skip
    if locale is Locale.EN and (prompt_en or answer_en):
        return SearchHit(question_id, title_en or title, Kind(kind),
                         snippet(prompt_en or answer_en, terms))  # fmt: skip
    return SearchHit(question_id, title, Kind(kind), snippet(prompt or answer, terms))


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
