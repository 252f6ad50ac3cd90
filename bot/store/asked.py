"""How often a question was asked: the interview reports that mention it, counted.

Every report that asked a question counts once, however often it lists it. The bank's own
reports are its items' `sources` (`question_sources`: one row per report an item cites;
an item written for the bank has none, so it counts 0). They count everywhere.

All counting reads one relation, `asks (question_id, report, company, round)`, written
once in `asks_sql`, so another source of asks is one more `UNION ALL` branch there and every
count, list and order follows. Reports are keyed by where they come from (`bank:` and the
document's name), so two sources can never share a key by accident. Every function takes
the `server` (`ChannelRef.server`) the question is asked about: the reports members import
in chat (`question_asks`, bot/community/) count in their own server only.

Each read is one round trip on both engines: a card's count with its companies and rounds,
and a listing's counts for many questions at once (never one query per question).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.db import Database, Row
from bot.types import Asked, AskedAt

_BANK = "SELECT question_id, 'bank:' || document, company, round FROM question_sources"
# A report members shared counts in its own server only; its key is the digest of its text.
# The report a server's item was drafted from is its source already (`question_sources`):
# shared again, it is not counted twice.
_SHARED = """SELECT question_id, 'shared:' || digest, company, round FROM question_asks a
              WHERE server = ? AND NOT EXISTS (
                  SELECT 1 FROM server_items i
                   WHERE i.question_id = a.question_id AND i.report = a.digest)"""


def asks_sql(server: str | None) -> tuple[str, tuple[str, ...]]:
    """The `asks` common table expression (for a `WITH`) and its parameters: every report
    that asked a question, as (question_id, report, company, round), one row per mention:
    the bank's reports everywhere, and the reports members shared in `server` there."""
    return (f"asks (question_id, report, company, round) AS ({_BANK} UNION ALL {_SHARED})",
            (server or "",))  # fmt: skip


async def asked_of(db: Database, question_id: str, server: str | None = None) -> Asked:
    """How many distinct reports asked `question_id`, and the companies they name (most
    reports first, then by name), each with the rounds its reports name."""
    cte, params = asks_sql(server)
    # Part 0: every distinct report; 1: per company; 2: per company and round.
    sql = f"""WITH {cte},
              mine AS (SELECT DISTINCT report, company, round FROM asks WHERE question_id = ?)
              SELECT 0, NULL, NULL, count(DISTINCT report) FROM mine
              UNION ALL
              SELECT 1, company, NULL, count(DISTINCT report) FROM mine
               WHERE company IS NOT NULL GROUP BY company
              UNION ALL
              SELECT 2, company, round, count(DISTINCT report) FROM mine
               WHERE company IS NOT NULL AND round IS NOT NULL GROUP BY company, round
              ORDER BY 1, 4 DESC, 2, 3"""
    return _asked(await db.fetch_all(sql, (*params, question_id)))


async def counts_of(db: Database, question_ids: Sequence[str],
                 server: str | None = None) -> dict[str, int]:  # fmt: skip
    """The number of distinct reports that asked each of `question_ids`, in one query;
    a question no report asked is absent (it counts 0)."""
    if not question_ids:
        return {}
    cte, params = asks_sql(server)
    marks = ",".join("?" * len(question_ids))
    sql = f"""WITH {cte} SELECT question_id, count(DISTINCT report) FROM asks
              WHERE question_id IN ({marks}) GROUP BY question_id"""
    rows = await db.fetch_all(sql, (*params, *question_ids))
    return {str(row[0]): int(row[1]) for row in rows}


def _asked(rows: Sequence[Row]) -> Asked:
    total = next((int(row[3]) for row in rows if row[0] == 0), 0)
    rounds: dict[str, list[str]] = {str(r[1]): [] for r in rows if r[0] == 1}
    for row in rows:
        if row[0] == 2:
            rounds[str(row[1])].append(str(row[2]))
    return Asked(total, tuple(AskedAt(c, tuple(r)) for c, r in rounds.items()))
