"""Search on SQLite: an FTS5 table over pre-tokenised text, its rowid the question's rowid.

The only place a `rowid` is spoken: the FTS5 table `question_search` (title, body) shares
its rowids with `questions`, so a match joins back to its question without a key column.
User text reaches FTS5 only as quoted tokens (`bot.search.tokens.match_expression`).

Ranking: bm25 with the title weighted 8 to 1. BM25 costs a few microseconds per matching
row, so ranking every body match of a common word (通信 in a third of 10,000 questions)
would blow the latency budget. Title matches are few and are the best answers anyway; body
matches are ranked only when titles alone cannot fill the page. See bench/ for the figures.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.search.tokens import fold, match_expression
from bot.store.db import Database
from bot.store.search_index import FOREIGN, SearchRow

RERANK = 2  # title matches scored again on the whole text, per result wanted
_FOREIGN = FOREIGN.format(key="rowid")


class Fts5Index:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def replace(self, rows: Sequence[SearchRow]) -> None:
        if not rows:
            return
        found = await self._db.fetch_all("SELECT id, rowid FROM questions")
        rowids = {row[0]: int(row[1]) for row in found}
        await self._db.executemany(
            "DELETE FROM question_search WHERE rowid = ?",
            [(rowids[row.question_id],) for row in rows],
        )
        await self._db.executemany(
            "INSERT INTO question_search (rowid, title, body) VALUES (?, ?, ?)",
            [(rowids[row.question_id], row.title, row.body) for row in rows],
        )

    async def remove(self, question_ids: Sequence[str]) -> None:
        await self._db.executemany(
            "DELETE FROM question_search WHERE rowid = (SELECT rowid FROM questions WHERE id = ?)",
            [(question_id,) for question_id in question_ids],
        )

    async def matching(self, query: str, limit: int, server: str | None = None) -> list[str]:
        """Title matches first (re-ranked by their text), then body matches by bm25."""
        expression = match_expression(query)
        if expression is None:
            return []
        mine = server or ""
        titles = await self._title_matches(f"title : ({expression})", query, limit * RERANK,
                                           mine)  # fmt: skip
        best = sorted(titles, key=lambda match: match[2])[:limit]
        found = [question_id for _, question_id, _ in best]
        if len(found) < limit:
            exclude = tuple(rowid for rowid, _, _ in best)
            found += await self._ranked(expression, limit - len(found), exclude, mine)
        return found

    async def _title_matches(self, expression: str, query: str, limit: int,
                             server: str) -> list[tuple[int, str, float]]:  # fmt: skip
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
        sql = f"""SELECT m.rowid, q.id, m.score, {said} FROM (
                      SELECT rowid, bm25(question_search, 8.0, 1.0) AS score
                      FROM question_search WHERE question_search MATCH ? AND rowid NOT IN
                           ({_FOREIGN}) ORDER BY score LIMIT ?
                  ) AS m JOIN questions AS q ON q.rowid = m.rowid"""
        params = [v for w in words for v in (w, w)]
        found = await self._db.fetch_all(sql, (*params, expression, server, limit))
        return [(int(r[0]), str(r[1]), float(r[2]) - math.log1p(int(r[3] or 0))) for r in found]

    async def _ranked(self, expression: str, limit: int, exclude: tuple[int, ...],
                      server: str) -> list[str]:  # fmt: skip
        """The best `limit` matches by bm25, leaving out `exclude` (rowids already found)
        and other servers' items; ranked before the join, so only the page's rows are
        looked up in `questions`."""
        skip = f"AND rowid NOT IN ({','.join('?' * len(exclude))})" if exclude else ""
        sql = f"""SELECT q.id FROM (
                      SELECT rowid, bm25(question_search, 8.0, 1.0) AS score
                      FROM question_search WHERE question_search MATCH ? {skip}
                        AND rowid NOT IN ({_FOREIGN})
                      ORDER BY score LIMIT ?
                  ) AS m JOIN questions AS q ON q.rowid = m.rowid ORDER BY m.score"""
        found = await self._db.fetch_all(sql, (expression, *exclude, server, limit))
        return [str(row[0]) for row in found]


def _folded(text: str) -> str:
    """Folded (full-width as ASCII, Traditional as Simplified), lower case, no hyphens or
    underscores: All-Reduce, all_reduce, allreduce and ＡＬＬＲＥＤＵＣＥ agree."""
    return fold(text).lower().replace("-", "").replace("_", "")
