"""What each member has seen, and the pick for `/question` that prefers what they have not.

A member has seen a question when it was shown to them (`questions_seen`, written here), when
they opened its answer (`answer_reveals`), answered it (any act of the `activity` ledger, or
a daily quiz in `quiz_answers`) or hold a review card for it (`cards`).
The pick, among the questions that match the filters:

1. one they have not seen, at random;
2. else one due for review (a card due now), the one seen longest ago first;
3. else the one seen longest ago;
4. never the one they saw last, unless nothing else matches.

It is one statement, and it never lists the bank. The member's history (a few thousand rows
at most, read through the primary keys and indexes of their tables) is gathered once; an
unseen question is found by walking the questions from a random point and stopping at the
first one not in that history, wrapping round at the end. A member who has seen little
stops after a row or two; one who has seen most of a topic walks further, never more than
the bank. Seen questions are ranked from the history alone. `bench/picks.py` measures it.

The walk is the one part written per engine: SQLite walks the table itself in rowid order
from a random fraction of the largest rowid (no index, no sort); PostgreSQL's tables have
no rowid, so it walks the primary key in id order from the id at a random offset. Finding
that id counts the bank and steps over the offset's index entries: about 3 ms of a pick at
10,000 questions, where a dense number per question would make it one index probe.

Walking from a random point is uniform while nothing is seen; later, an unseen question
that follows a long run of seen ones is a little likelier than one after another unseen
one: no member will notice, and a uniform draw would cost a scan of the bank on every pick.
Quiz answers are found by member (index `quiz_answers_member`), wherever they were given.

`last_problem` is what a `/hint` naming no problem is about: the coding problem the member
was shown last, or one posted as the daily question in their channel since.
"""

from __future__ import annotations

import random
from datetime import datetime
from functools import lru_cache

from bot.store.db import Database, Engine
from bot.store.questions import live_filters
from bot.types import ChannelRef, Difficulty, Kind, User

# Parameters: the member's platform and id, once per table read (five pairs).
_SEEN = """WITH mine (question_id, at) AS (
        SELECT question_id, seen_at FROM questions_seen WHERE platform = ? AND user_id = ?
        UNION ALL
        SELECT question_id, revealed_at FROM answer_reveals WHERE platform = ? AND user_id = ?
        UNION ALL
        SELECT question_id, at FROM activity WHERE platform = ? AND user_id = ?
        UNION ALL
        SELECT d.question_id, a.answered_at FROM quiz_answers a
          JOIN daily_posts d ON d.schedule_id = a.schedule_id AND d.slot = a.slot
                            AND d.part = 'question'
         WHERE a.platform = ? AND a.user_id = ?
        UNION ALL
        SELECT question_id, '' FROM cards WHERE platform = ? AND user_id = ?
    ),
    seen (question_id, at) AS (SELECT question_id, max(at) FROM mine GROUP BY question_id),
    latest (question_id) AS (SELECT question_id FROM seen ORDER BY at DESC LIMIT 1)"""

# The first unseen question from a random point on (`op` ">="), or before it ("<").
# Parameters: where the walk starts (a fraction in [0, 1)), then the filters'. SQLite: NOT
# INDEXED walks the table in rowid order from the start instead of sorting every match.
# PostgreSQL: `floor` keeps the offset below the number of questions, so a start exists.
_UNSEEN: dict[Engine, str] = {
    "sqlite": """(SELECT q.id FROM questions q NOT INDEXED
         WHERE q.rowid {op} ? * (SELECT max(rowid) FROM questions) AND {where}
           AND q.id NOT IN (SELECT question_id FROM mine)
         ORDER BY q.rowid LIMIT 1)""",
    "postgres": """(SELECT q.id FROM questions q
         WHERE q.id {op} (SELECT id FROM questions ORDER BY id LIMIT 1 OFFSET
                          CAST(floor(? * (SELECT count(*) FROM questions)) AS bigint))
           AND {where} AND q.id NOT IN (SELECT question_id FROM mine)
         ORDER BY q.id LIMIT 1)""",
}

# `coalesce` evaluates its arguments in turn and stops at the first that is not NULL (on
# both engines), so the ranking of seen questions costs nothing while an unseen one is
# found. The ranking's parameters: the member's platform and id, the filters', now.
_PICK = """{seen}
    SELECT coalesce(
        {unseen_after},
        {unseen_before},
        (SELECT q.id FROM seen s JOIN questions q ON q.id = s.question_id
           LEFT JOIN cards c ON c.platform = ? AND c.user_id = ? AND c.question_id = q.id
          WHERE {where}
          ORDER BY CASE WHEN q.id IN (SELECT question_id FROM latest) THEN 1 ELSE 0 END,
                   CASE WHEN c.due <= ? THEN 0 ELSE 1 END, s.at LIMIT 1))"""


class SeenStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def record(self, user: User, question_id: str, at: datetime) -> None:
        """`user` was shown `question_id` at `at` (the latest showing is kept)."""
        await self._db.execute(
            """INSERT INTO questions_seen (platform, user_id, question_id, seen_at)
               VALUES (?, ?, ?, ?) ON CONFLICT (platform, user_id, question_id)
               DO UPDATE SET seen_at = excluded.seen_at""",
            (user.platform, user.id, question_id, at.isoformat()),
        )

    async def pick(
        self,
        user: User,
        rng: random.Random,
        now: datetime,
        *,
        kind: Kind | None = None,
        topic: str | None = None,
        difficulty: Difficulty | None = None,
        server: str | None = None,
    ) -> str | None:
        """The id of the question `user` should see next (see the module docstring), or
        None if no live question matches the filters; among those served in `server` (the
        shared bank's, and that server's own)."""
        where, filters = live_filters(kind, topic, difficulty, server)
        me, start = (user.platform, user.id), rng.random()
        params = (*(me * 5), start, *filters, start, *filters, *me, *filters, now.isoformat())
        row = await self._db.fetch_one(_pick_sql(self._db.engine, where), params)
        return str(row[0]) if row and row[0] is not None else None

    async def last_problem(self, user: User, channel: ChannelRef) -> str | None:
        """The coding problem `user` was shown last, or posted in `channel` as a daily
        question later than that: what a `/hint` naming no problem is about."""
        where = (channel.platform, channel.workspace or "", channel.channel)
        row = await self._db.fetch_one(_LAST_PROBLEM, (user.platform, user.id, *where))
        return str(row[0]) if row else None


_LAST_PROBLEM = """SELECT question_id FROM (
        SELECT s.question_id, s.seen_at AS at FROM questions_seen s
          JOIN questions q ON q.id = s.question_id
         WHERE s.platform = ? AND s.user_id = ? AND q.kind = 'coding'
        UNION ALL
        SELECT d.question_id, d.sent_at AS at FROM daily_posts d
          JOIN schedules c ON c.id = d.schedule_id
          JOIN questions q ON q.id = d.question_id
         WHERE c.platform = ? AND c.workspace = ? AND c.channel = ? AND d.part = 'question'
           AND d.state = 'sent' AND q.kind = 'coding'
    ) AS shown ORDER BY at DESC LIMIT 1"""


@lru_cache(maxsize=64)
def _pick_sql(engine: Engine, where: str) -> str:
    """The pick's statement on `engine` for one set of filters."""
    unseen = _UNSEEN[engine]
    return _PICK.format(seen=_SEEN, unseen_after=unseen.format(op=">=", where=where),
                        unseen_before=unseen.format(op="<", where=where), where=where)  # fmt: skip
