"""The search index boundary: what the question store and the content loader ask of search.

The index holds one row per served question (published, not retired): its title and its
body, each already tokenised by `bot.search.tokens.index_text`, so both engines index the
same tokens and a query is tokenised on our side too. The loader writes rows (`replace`)
and drops them (`remove`) inside its transaction; the store asks for the ids that match a
query, best first (`matching`, the shared bank's and the asking server's), and reads the
questions themselves by id.

Two implementations, one per engine (`index_for` picks by the database's class):
- `bot.store.fts5.Fts5Index`: SQLite's FTS5 table, rowid = the question's rowid, ranked
  by bm25 with the title weighted 8 to 1 (and title matches re-ranked by their text);
- `bot.store.postgres.search.PostgresIndex`: a GIN-indexed `simple` tsvector keyed by
  question id, title matches ranked first, body matches after them.
The same query finds the same set of questions on both; the order of body-only matches
may differ (`bot.store.postgres.search` says why).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.store.db import Database


@dataclass(frozen=True, slots=True)
class SearchRow:
    """One question's searchable text, pre-tokenised (`index_text`)."""

    question_id: str
    title: str
    body: str


class SearchIndex(Protocol):
    async def replace(self, rows: Sequence[SearchRow]) -> None:
        """Index these rows, in place of any row their questions had."""
        ...

    async def remove(self, question_ids: Sequence[str]) -> None:
        """Drop these questions' rows (a question without one is left alone)."""
        ...

    async def matching(self, query: str, limit: int, server: str | None = None) -> list[str]:
        """The ids of up to `limit` questions matching every term of `query`, best first:
        the shared bank's and `server`'s own (never another server's; none without one)."""
        ...


# Leaves out the rows of every server but one (its key, "" for none): few rows, found through
# the partial index `questions_server`, so a search pays next to nothing for it.
FOREIGN = "SELECT {key} FROM questions WHERE server IS NOT NULL AND server <> ?"


def index_for(db: Database) -> SearchIndex:
    """The index of the engine that holds `db`."""
    from bot.store.fts5 import Fts5Index  # (both import this module's SearchRow)
    from bot.store.postgres.db import PostgresDatabase
    from bot.store.postgres.search import PostgresIndex

    return PostgresIndex(db) if isinstance(db, PostgresDatabase) else Fts5Index(db)
