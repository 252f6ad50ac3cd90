"""Search on PostgreSQL: the tokens of `bot.search.tokens`, spelled as a tsquery.

`question_search.document` is the `simple` tsvector of pre-tokenised text, so a query is
tokenised on our side too and only its tokens reach PostgreSQL: each term of
`query_terms` becomes a quoted lexeme, a CJK phrase its bigrams joined by `<->` (adjacent,
as FTS5's phrase), and the terms are joined by `&`. Quoting makes every token a literal
lexeme, so no user text reaches the tsquery syntax. `ts_rank`'s default weights count a
title (weight A) ten times a body (D), near SQLite's bm25 weights of 8 to 1.
"""

from __future__ import annotations

from bot.search.tokens import query_terms

# The same query for every backend call: parameterised, the tsquery text is the only input.
MATCH_SQL = """
    SELECT question_id FROM question_search
    WHERE document @@ to_tsquery('simple', %(query)s)
    ORDER BY ts_rank(document, to_tsquery('simple', %(query)s)) DESC, question_id
    LIMIT %(limit)s
"""


def tsquery(query: str) -> str | None:
    """The to_tsquery text for `query`, or None if it has nothing searchable."""
    terms = [" <-> ".join(_lexeme(token) for token in phrase) for phrase in query_terms(query)]
    return " & ".join(f"({term})" for term in terms) or None


def _lexeme(token: str) -> str:
    escaped = token.replace("\\", "\\\\").replace("'", "''")
    return f"'{escaped}'"
