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
"""

from __future__ import annotations

from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from bot.search.tokens import query_terms

_TITLE_MATCHES = """
    SELECT question_id FROM question_search
    WHERE title_document @@ to_tsquery('simple', %(query)s)
    ORDER BY ts_rank(title_document, to_tsquery('simple', %(query)s)) DESC, question_id
    LIMIT %(limit)s
"""
_BODY_MATCHES = """
    SELECT question_id FROM question_search
    WHERE document @@ to_tsquery('simple', %(query)s)
      AND NOT title_document @@ to_tsquery('simple', %(query)s)
    LIMIT %(limit)s
"""


async def matching_ids(conn: AsyncConnection[TupleRow], query: str, limit: int = 10) -> list[str]:
    """The ids of up to `limit` questions matching every term of `query`, best first."""
    expression = tsquery(query)
    if expression is None:
        return []
    params = {"query": expression, "limit": limit}
    found = [str(row[0]) for row in await (await conn.execute(_TITLE_MATCHES, params)).fetchall()]
    if len(found) < limit:
        params["limit"] = limit - len(found)
        rest = await (await conn.execute(_BODY_MATCHES, params)).fetchall()
        found += [str(row[0]) for row in rest]
    return found


def tsquery(query: str) -> str | None:
    """The to_tsquery text for `query`, or None if it has nothing searchable."""
    terms = [" <-> ".join(_lexeme(token) for token in phrase) for phrase in query_terms(query)]
    return " & ".join(f"({term})" for term in terms) or None


def _lexeme(token: str) -> str:
    escaped = token.replace("\\", "\\\\").replace("'", "''")
    return f"'{escaped}'"
