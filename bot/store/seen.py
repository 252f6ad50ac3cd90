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
unseen question is found by walking the questions from a random rowid and stopping at the
first one not in that history, wrapping round at the end. A member who has seen little
stops after a row or two; one who has seen most of a topic walks further, never more than
the bank. Seen questions are ranked from the history alone. `bench/picks.py` measures it.

Walking from a random point is uniform while nothing is seen; later, an unseen question
that follows a long run of seen ones is a little likelier than one after another unseen
one: no member will notice, and a uniform draw would cost a scan of the bank on every pick.
Quiz answers are found by member (index `quiz_answers_member`), wherever they were given.
"""

from __future__ import annotations

import random
from datetime import datetime

import aiosqlite

from bot.store.database import fetch_one
from bot.store.questions import live_filters
from bot.types import Difficulty, Kind, User

_SEEN = """WITH mine (question_id, at) AS (
        SELECT question_id, seen_at FROM questions_seen WHERE platform = ?1 AND user_id = ?2
        UNION ALL
        SELECT question_id, revealed_at FROM answer_reveals WHERE platform = ?1 AND user_id = ?2
        UNION ALL
        SELECT question_id, at FROM activity WHERE platform = ?1 AND user_id = ?2
        UNION ALL
        SELECT d.question_id, a.answered_at FROM quiz_answers a
          JOIN daily_posts d ON d.schedule_id = a.schedule_id AND d.slot = a.slot
                            AND d.part = 'question'
         WHERE a.platform = ?1 AND a.user_id = ?2
        UNION ALL
        SELECT question_id, '' FROM cards WHERE platform = ?1 AND user_id = ?2
    ),
    seen (question_id, at) AS (SELECT question_id, max(at) FROM mine GROUP BY question_id),
    latest (question_id) AS (SELECT question_id FROM seen ORDER BY at DESC LIMIT 1)"""

# Parameters: ?1 platform, ?2 member, ?3 now, ?4 where the walk starts (a fraction of the
# largest rowid); the filters' own from ?5 on. `coalesce` evaluates its
# arguments in turn and stops at the first that is not NULL, so the ranking of seen
# questions costs nothing while an unseen one is found; NOT INDEXED walks the table in
# rowid order from the start point instead of sorting every match.
_UNSEEN = """(SELECT q.id FROM questions q NOT INDEXED
         WHERE q.rowid {op} ?4 * (SELECT max(rowid) FROM questions) AND {where}
           AND q.id NOT IN (SELECT question_id FROM mine)
         ORDER BY q.rowid LIMIT 1)"""
_PICK = f"""{_SEEN}
    SELECT coalesce(
        {_UNSEEN.format(where="{where}", op=">=")},
        {_UNSEEN.format(where="{where}", op="<")},
        (SELECT q.id FROM seen s JOIN questions q ON q.id = s.question_id
           LEFT JOIN cards c ON c.platform = ?1 AND c.user_id = ?2 AND c.question_id = q.id
          WHERE {{where}}
          ORDER BY q.id IN latest, coalesce(c.due > ?3, 1), s.at LIMIT 1))"""


class SeenStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def record(self, user: User, question_id: str, at: datetime) -> None:
        """`user` was shown `question_id` at `at` (the latest showing is kept)."""
        await self._db.execute(
            """INSERT INTO questions_seen (platform, user_id, question_id, seen_at)
               VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET seen_at = excluded.seen_at""",
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
    ) -> str | None:
        """The id of the question `user` should see next (see the module docstring), or
        None if no live question matches the filters."""
        where, filters = live_filters(kind, topic, difficulty)
        where = _numbered(where, first=5)
        params = (user.platform, user.id, now.isoformat(), rng.random(), *filters)
        row = await fetch_one(self._db, _PICK.format(where=where), params)
        return str(row[0]) if row and row[0] is not None else None


def _numbered(where: str, first: int) -> str:
    """`where` with its `?` marks numbered from `first` on, so it can be used more than once
    in a statement whose other parameters are numbered too."""
    parts = where.split("?")
    return "".join(f"{part}?{first + i}" for i, part in enumerate(parts[:-1])) + parts[-1]
