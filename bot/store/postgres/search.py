"""Search on PostgreSQL: the tokens of `bot.search.tokens`, spelled as a tsquery.

`question_search.document` is the `simple` tsvector of pre-tokenised text, so a query is
tokenised on our side too and only its tokens reach PostgreSQL: each term of
`query_terms` becomes a quoted lexeme, a CJK phrase its bigrams joined by `<->` (adjacent,
as FTS5's phrase), and the terms are joined by `&`. Quoting makes every token a literal
lexeme, so no user text reaches the tsquery syntax.

Ranking follows SQLite's shape (title matches first, then the rest), for speed. Ranking
every match with `ts_rank(document, ...)` reads each match's whole tsvector, bodies and
all, from TOAST: on 10,000 questions a common word such as 显存 matches half of them and
takes 100 ms or more. So title matches are ranked on the small `title_document` alone
(milliseconds), and the body-only matches that fill the rest come unranked, in table order,
straight off the GIN index. SQLite's bm25 still orders body matches better; that is the
price of the time budget.

Both queries run unprepared, each planned for its own tsquery. psycopg prepares a statement
once its text has run five times on a connection, and PostgreSQL may then keep one generic
plan for every tsquery; for the body query that plan is a sequential scan in the hope of
meeting `limit` matches soon, and for a word that no question contains it reads every body:
250-400 ms at 10,000 questions instead of 0.1 ms through the GIN index. Planning each
search costs a fraction of a millisecond.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.search.tokens import query_terms
from bot.store.postgres.db import PostgresDatabase
from bot.store.search_index import FOREIGN, SearchRow

_TITLE_MATCHES = f"""
    SELECT question_id FROM question_search
    WHERE title_document @@ to_tsquery('simple', ?)
      AND question_id NOT IN ({FOREIGN.format(key="id")})
    ORDER BY ts_rank(title_document, to_tsquery('simple', ?)) DESC, question_id
    LIMIT ?
"""
_BODY_MATCHES = f"""
    SELECT question_id FROM question_search
    WHERE document @@ to_tsquery('simple', ?)
      AND NOT title_document @@ to_tsquery('simple', ?)
      AND question_id NOT IN ({FOREIGN.format(key="id")})
    LIMIT ?
"""
# The tsvectors are generated columns: writing the text rebuilds them.
_UPSERT = """
    INSERT INTO question_search (question_id, title, body) VALUES (?, ?, ?)
    ON CONFLICT (question_id) DO UPDATE SET title = excluded.title, body = excluded.body
"""


class PostgresIndex:
    def __init__(self, db: PostgresDatabase) -> None:
        self._db = db

    async def replace(self, rows: Sequence[SearchRow]) -> None:
        await self._db.executemany(_UPSERT, [(r.question_id, r.title, r.body) for r in rows])

    async def remove(self, question_ids: Sequence[str]) -> None:
        await self._db.executemany(
            "DELETE FROM question_search WHERE question_id = ?", [(i,) for i in question_ids]
        )

    async def matching(self, query: str, limit: int, server: str | None = None) -> list[str]:
        """Title matches by rank (ties by id), then body-only matches in table order."""
        expression = tsquery(query)
        if expression is None:
            return []
        params = (expression, server or "", expression, limit)
        titles = await self._db.fetch_all(_TITLE_MATCHES, params, prepare=False)
        found = [str(row[0]) for row in titles]
        if len(found) < limit:
            params = (expression, expression, server or "", limit - len(found))
            rest = await self._db.fetch_all(_BODY_MATCHES, params, prepare=False)
            found += [str(row[0]) for row in rest]
        return found


def tsquery(query: str) -> str | None:
    """The to_tsquery text for `query`, or None if it has nothing searchable."""
    terms = [" <-> ".join(_lexeme(token) for token in phrase) for phrase in query_terms(query)]
    return " & ".join(f"({term})" for term in terms) or None


def _lexeme(token: str) -> str:
    escaped = token.replace("\\", "\\\\").replace("'", "''")
    return f"'{escaped}'"
