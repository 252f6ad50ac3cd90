"""Schedules and the ledger of daily posts.

The ledger (`daily_posts`) is what makes posting exactly-once: a post is *claimed* by
inserting its row, keyed by (schedule, slot, part), in a transaction before anything is sent.
A second claim of the same key inserts nothing and is refused. The row then records the
platform's message reference once the platform accepted the message, so the answer can be
posted in the question's thread, even after a restart.

Many processes may share the ledger (`bot.scheduler` says how). A claim carries a `Lease`:
the process holding it (`claimed_by`) and until when (`lease_until`). The holder renews its
leases while it works; a pending post whose lease lapsed was claimed by a process that died,
and one statement (`take_over`) hands it to a live one, so two can never both take it.
Every schedule change takes the next number of `schedule_revision` and stamps it on the
schedule, in one transaction: a process that read number n learns what changed since with
one query for the schedules stamped after n.

The SQL is portable (SQLite and PostgreSQL, through `bot.store.db.Database`). Times are UTC
ISO-8601 text; leases are written to the microsecond, so their text order is time order.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from bot.schedule.model import AnswerTiming, Cycle, Schedule
from bot.schedule.times import parse_local_time, parse_zone
from bot.store.db import Database, Row
from bot.types import ChannelRef, Kind, Locale

Part = Literal["question", "answer"]
State = Literal["pending", "sent", "failed"]

# Rows per claiming statement: at 8 parameters a row, far below either engine's limit
# (SQLite 32,766; PostgreSQL 65,535).
CLAIM_CHUNK = 1_000


@dataclass(frozen=True, slots=True)
class Post:
    """One row of the ledger."""

    schedule_id: int
    slot: str
    part: Part
    question_id: str
    kind: Kind
    cycle: int
    due_at: datetime
    state: State
    attempts: int
    nonce: str
    message_id: str | None
    sent_at: datetime | None = None  # when the platform took it (a late post: after due_at)


@dataclass(frozen=True, slots=True)
class Lease:
    """Who holds a claim, and until when unless renewed."""

    owner: str
    until: datetime


class ScheduleStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    # --- schedules ---------------------------------------------------------------------

    async def save(self, s: Schedule) -> Schedule:
        """Create or replace the schedule of `s.channel` (one per channel); unpauses it."""
        sql = """INSERT INTO schedules (platform, workspace, channel, post_time, timezone, days,
                     coding_days, topic, answer, locale, summary, paused, pause_reason, revision)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, ?)
                 ON CONFLICT (platform, workspace, channel) DO UPDATE SET
                     post_time = excluded.post_time, timezone = excluded.timezone,
                     days = excluded.days, coding_days = excluded.coding_days,
                     topic = excluded.topic, answer = excluded.answer, locale = excluded.locale,
                     summary = excluded.summary, paused = 0, pause_reason = NULL,
                     revision = excluded.revision
                 RETURNING id"""
        c = s.channel
        params = (c.platform, c.workspace or "", c.channel, s.post_at.strftime("%H:%M"),
                  s.zone.key, _mask(s.days), _mask(s.coding_days), s.topic, str(s.answer),
                  _languages(s), "weekly" if s.weekly_summary else "off")  # fmt: skip
        async with self._db.transaction():
            row = await self._db.fetch_one(sql, (*params, await self._next_revision()))
        assert row is not None  # RETURNING yields the row written
        saved = await self.get(int(row[0]))
        assert saved is not None
        return saved

    async def get(self, schedule_id: int) -> Schedule | None:
        rows = await self._schedules("id = ?", (schedule_id,))
        return rows[0] if rows else None

    async def for_channel(self, channel: ChannelRef) -> Schedule | None:
        where = "platform = ? AND workspace = ? AND channel = ?"
        rows = await self._schedules(where, (channel.platform, channel.workspace or "",
                                             channel.channel))  # fmt: skip
        return rows[0] if rows else None

    async def on_platforms(self, platforms: frozenset[str]) -> list[Schedule]:
        """Every schedule (paused ones too) on the platforms that are connected."""
        if not platforms:
            return []
        return await self._schedules(f"platform IN ({marks(platforms)})", tuple(platforms))

    async def in_workspace(self, platform: str, workspace: str | None) -> list[Schedule]:
        """Every schedule of one workspace (or guild), paused ones too."""
        return await self._schedules("platform = ? AND workspace = ?", (platform, workspace or ""))

    async def set_paused(self, schedule_id: int, paused: bool, reason: str | None = None) -> None:
        async with self._db.transaction():
            await self._db.execute(
                "UPDATE schedules SET paused = ?, pause_reason = ?, revision = ? WHERE id = ?",
                (int(paused), reason if paused else None, await self._next_revision(),
                 schedule_id),
            )  # fmt: skip

    async def remove(self, schedule_id: int) -> None:
        async with self._db.transaction():
            await self._next_revision()
            await self._db.execute("DELETE FROM schedules WHERE id = ?", (schedule_id,))

    async def _schedules(self, where: str, params: Sequence[object]) -> list[Schedule]:
        sql = f"""SELECT id, platform, workspace, channel, post_time, timezone, days,
                         coding_days, topic, answer, paused, pause_reason, locale, summary
                  FROM schedules WHERE {where} ORDER BY id"""
        return [_schedule(row) for row in await self._db.fetch_all(sql, params)]

    # --- changes, for other processes ----------------------------------------------------

    async def revision(self) -> int:
        """How many schedule changes there have been: one cheap read a tick."""
        row = await self._db.fetch_one("SELECT revision FROM schedule_revision")
        return int(row[0]) if row else 0

    async def changed_since(self, revision: int, platforms: frozenset[str]) -> list[Schedule]:
        """The schedules on `platforms` created or changed after change number `revision`
        (removed ones are gone: `ids_on` finds them)."""
        if not platforms:
            return []
        return await self._schedules(f"revision > ? AND platform IN ({marks(platforms)})",
                                     (revision, *platforms))  # fmt: skip

    async def count_on(self, platforms: frozenset[str]) -> int:
        if not platforms:
            return 0
        row = await self._db.fetch_one(
            f"SELECT count(*) FROM schedules WHERE platform IN ({marks(platforms)})",
            tuple(platforms),
        )
        return int(row[0]) if row else 0

    async def ids_on(self, platforms: frozenset[str]) -> set[int]:
        if not platforms:
            return set()
        rows = await self._db.fetch_all(
            f"SELECT id FROM schedules WHERE platform IN ({marks(platforms)})", tuple(platforms)
        )
        return {int(r[0]) for r in rows}

    async def _next_revision(self) -> int:
        """Take the next change number (inside the caller's transaction). On PostgreSQL the
        row stays locked until that transaction ends, so changes become visible in the order
        of their numbers, and a reader that saw n has seen every change up to n."""
        row = await self._db.fetch_one(
            "UPDATE schedule_revision SET revision = revision + 1 WHERE id = 1 RETURNING revision"
        )
        assert row is not None  # the row is made by the migration
        return int(row[0])

    # --- the ledger --------------------------------------------------------------------

    async def claim(self, post: Post, lease: Lease | None = None) -> bool:
        """Insert `post` as pending; False if its (schedule, slot, part) is already claimed.
        Without a lease the claim is open to `take_over` at once."""
        return bool(await self._claim([post], lease))

    async def claim_all(self, posts: Sequence[Post], lease: Lease | None = None) -> list[Post]:
        """Claim many posts in one transaction; returns the ones this call claimed.

        Each row is inserted only if its key is free (`ON CONFLICT DO NOTHING`) and its
        schedule still exists (another process may have removed it); `RETURNING` says which
        rows went in, so two processes claiming the same slots at once split them, on either
        engine, without a read before the write. Rows go in key order: on PostgreSQL the
        second of two such transactions waits on the first's keys, and in one order two
        cannot wait on each other."""
        ordered = sorted(posts, key=lambda p: (p.schedule_id, p.slot, p.part))
        claimed: list[Post] = []
        async with self._db.transaction():
            for start in range(0, len(ordered), CLAIM_CHUNK):
                claimed += await self._claim(ordered[start : start + CLAIM_CHUNK], lease)
        return claimed

    async def _claim(self, posts: Sequence[Post], lease: Lease | None) -> list[Post]:
        if not posts:
            return []
        values = ",".join("(?, ?, ?, ?, ?, ?, ?, ?)" for _ in posts)
        params = [v for p in posts for v in _claim_params(p)]
        owner, until = (lease.owner, lease_instant(lease.until)) if lease else (None, None)
        rows = await self._db.fetch_all(
            f"""INSERT INTO daily_posts (schedule_id, slot, part, question_id, kind, cycle,
                    due_at, nonce, state, claimed_by, lease_until)
                SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6,
                       v.column7, v.column8, 'pending', ?, ?
                FROM (VALUES {values}) AS v
                WHERE EXISTS (SELECT 1 FROM schedules s WHERE s.id = v.column1)
                ON CONFLICT DO NOTHING
                RETURNING schedule_id, slot, part""",
            (owner, until, *params),
        )
        taken = {(int(r[0]), str(r[1]), str(r[2])) for r in rows}
        return [p for p in posts if (p.schedule_id, p.slot, p.part) in taken]

    async def questions_claimed(self, slots: Sequence[tuple[int, str]]) -> set[tuple[int, str]]:
        """Which of these (schedule, slot) questions are claimed already (by anyone)."""
        if not slots:
            return set()
        rows = await self._db.fetch_all(
            f"""SELECT schedule_id, slot FROM daily_posts WHERE part = 'question'
                AND (schedule_id, slot) IN (VALUES {",".join("(?, ?)" for _ in slots)})""",
            [v for key in slots for v in key],
        )
        return {(int(r[0]), str(r[1])) for r in rows}

    async def renew(self, lease: Lease, platforms: frozenset[str]) -> int:
        """Extend every pending claim `lease.owner` holds on `platforms` to `lease.until`
        (a live process's heartbeat); how many."""
        if not platforms:
            return 0
        return await self._db.execute(
            f"""UPDATE daily_posts SET lease_until = ?
                WHERE state = 'pending' AND claimed_by = ? AND schedule_id IN (
                    SELECT id FROM schedules WHERE platform IN ({marks(platforms)}))""",
            (lease_instant(lease.until), lease.owner, *platforms),
        )

    async def take_over(self, lease: Lease, now: datetime,
                        platforms: frozenset[str]) -> list[Post]:  # fmt: skip
        """Take every pending post on `platforms` whose lease, held by another process,
        lapsed by `now`: its claimant died (or lost its platform). One statement: a row
        another process took a moment before no longer matches, on either engine."""
        if not platforms:
            return []
        rows = await self._db.fetch_all(
            f"""UPDATE daily_posts SET claimed_by = ?, lease_until = ?
                WHERE state = 'pending' AND (lease_until IS NULL OR lease_until < ?)
                  AND (claimed_by IS NULL OR claimed_by <> ?) AND schedule_id IN (
                    SELECT id FROM schedules WHERE platform IN ({marks(platforms)}))
                RETURNING {_POST_COLUMNS}""",
            (lease.owner, lease_instant(lease.until), lease_instant(now), lease.owner, *platforms),
        )
        return sorted((_post(r) for r in rows), key=lambda p: (p.due_at, p.schedule_id))

    async def retake(self, post: Post, lease: Lease, now: datetime) -> bool:
        """Hold `post` again before sending it once more (a retry, or a post that waited for
        its platform): True if it is still pending and its claim is ours or has lapsed."""
        row = await self._db.fetch_one(
            """UPDATE daily_posts SET claimed_by = ?, lease_until = ?
               WHERE schedule_id = ? AND slot = ? AND part = ? AND state = 'pending'
                 AND (claimed_by = ? OR lease_until IS NULL OR lease_until < ?)
               RETURNING 1""",
            (lease.owner, lease_instant(lease.until), post.schedule_id, post.slot, post.part,
             lease.owner, lease_instant(now)),
        )  # fmt: skip
        return row is not None

    async def mark_all_sent(self, sent: Sequence[tuple[Post, str, datetime]]) -> None:
        """Record that each post was accepted, with the platform's message id."""
        async with self._db.transaction():
            await self._db.executemany(
                """UPDATE daily_posts SET state = 'sent', message_id = ?, sent_at = ?,
                       attempts = attempts + 1, error = NULL
                   WHERE schedule_id = ? AND slot = ? AND part = ?""",
                [(message_id, at.isoformat(), p.schedule_id, p.slot, p.part)
                 for p, message_id, at in sent],
            )  # fmt: skip

    async def mark_attempt(self, post: Post, error: str, *, final: bool) -> int:
        """Count a failed attempt; `final` gives the post up. Returns the attempts so far."""
        row = await self._db.fetch_one(
            """UPDATE daily_posts SET attempts = attempts + 1, error = ?,
                   state = CASE WHEN ? = 1 THEN 'failed' ELSE state END
               WHERE schedule_id = ? AND slot = ? AND part = ? RETURNING attempts""",
            (error, int(final), post.schedule_id, post.slot, post.part),
        )
        return int(row[0]) if row else 0

    async def pending(self) -> list[Post]:
        """Posts claimed but not confirmed sent: left over by a crash or a failed attempt."""
        return await self._posts("state = 'pending'", ())

    async def unanswered(self) -> list[Post]:
        """Questions that were sent and whose answer has not been claimed yet."""
        return await self._posts(
            """part = 'question' AND state = 'sent' AND NOT EXISTS (
                   SELECT 1 FROM daily_posts a WHERE a.schedule_id = daily_posts.schedule_id
                   AND a.slot = daily_posts.slot AND a.part = 'answer')""",
            (),
        )

    async def question_post(self, schedule_id: int, slot: str) -> Post | None:
        rows = await self._posts(
            "schedule_id = ? AND slot = ? AND part = 'question'", (schedule_id, slot)
        )
        return rows[0] if rows else None

    async def answer_claimed(self, schedule_id: int, slot: str) -> bool:
        """Whether the answer of this question post is posted or on its way: its quiz is
        closed from that moment."""
        row = await self._db.fetch_one(
            "SELECT 1 FROM daily_posts WHERE schedule_id = ? AND slot = ? AND part = 'answer'",
            (schedule_id, slot),
        )
        return row is not None

    async def last_question_dues(self) -> dict[int, datetime]:
        """Each schedule's latest question slot (instants are stored in UTC, so max works)."""
        found = await self._db.fetch_all(
            "SELECT schedule_id, max(due_at) FROM daily_posts WHERE part = 'question' "
            "GROUP BY schedule_id"
        )
        return {int(row[0]): datetime.fromisoformat(row[1]) for row in found}

    async def current_cycles(self, schedule_ids: Collection[int]) -> dict[tuple[int, Kind], Cycle]:
        """For each schedule and kind: its latest cycle, what it asked and what it asked last.

        One query for any number of schedules: a minute in which a thousand channels are due
        reads them all at once instead of a thousand times. The ledger is the memory, so a
        restart of the bot changes nothing.
        """
        if not schedule_ids:
            return {}
        rows = await self._db.fetch_all(
            f"""SELECT schedule_id, kind, cycle, question_id FROM daily_posts d
                WHERE part = 'question' AND schedule_id IN ({marks(schedule_ids)}) AND cycle = (
                    SELECT max(cycle) FROM daily_posts m WHERE m.schedule_id = d.schedule_id
                    AND m.part = 'question' AND m.kind = d.kind)
                ORDER BY due_at""",
            tuple(schedule_ids),
        )
        asked: dict[tuple[int, Kind], tuple[int, list[str]]] = {}
        for row in rows:
            key = (int(row[0]), Kind(row[1]))
            asked.setdefault(key, (int(row[2]), []))[1].append(str(row[3]))
        return {key: Cycle(n, frozenset(ids), ids[-1]) for key, (n, ids) in asked.items()}

    async def starts_cycle(self, post: Post) -> bool:
        """Whether `post` is the first question of a new round (not of the first one)."""
        if post.cycle == 0:
            return False
        row = await self._db.fetch_one(
            """SELECT 1 FROM daily_posts WHERE schedule_id = ? AND part = 'question'
                  AND kind = ? AND cycle = ? AND due_at < ? LIMIT 1""",
            (post.schedule_id, post.kind.value, post.cycle, post.due_at.isoformat()),
        )
        return row is None

    async def _posts(self, where: str, params: tuple[object, ...]) -> list[Post]:
        sql = f"SELECT {_POST_COLUMNS} FROM daily_posts WHERE {where} ORDER BY due_at"
        return [_post(r) for r in await self._db.fetch_all(sql, params)]


_POST_COLUMNS = """schedule_id, slot, part, question_id, kind, cycle, due_at, state, attempts,
                   nonce, message_id, sent_at"""


def _post(r: Row) -> Post:
    return Post(int(r[0]), r[1], r[2], r[3], Kind(r[4]), int(r[5]),
                datetime.fromisoformat(r[6]), r[7], int(r[8]), r[9], r[10],
                datetime.fromisoformat(r[11]) if r[11] else None)  # fmt: skip


def _claim_params(p: Post) -> tuple[object, ...]:
    return (p.schedule_id, p.slot, p.part, p.question_id, p.kind.value, p.cycle,
            p.due_at.isoformat(), p.nonce)  # fmt: skip


def lease_instant(at: datetime) -> str:
    """A lease time as text whose order is time order: UTC, always to the microsecond."""
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def marks(values: Collection[object]) -> str:
    return ",".join("?" * len(values))


def _mask(days: frozenset[int]) -> int:
    return sum(1 << d for d in days)


def _days(mask: int) -> frozenset[int]:
    return frozenset(d for d in range(7) if mask >> d & 1)


def _schedule(row: Row) -> Schedule:
    return Schedule(
        id=int(row[0]),
        channel=ChannelRef(row[1], row[3], row[2] or None),
        post_at=parse_local_time(row[4]), zone=parse_zone(row[5]),
        days=_days(row[6]), coding_days=_days(row[7]), topic=row[8],
        answer=AnswerTiming.parse(row[9]), paused=bool(row[10]), pause_reason=row[11],
        locale=Locale(row[12].partition("+")[0]), bilingual="+" in row[12],
        weekly_summary=row[13] == "weekly",
    )  # fmt: skip


def _languages(s: Schedule) -> str:
    """The `locale` column: the posts' language, `+` the other one for bilingual posts
    (`zh+en`), so a schedule's languages stay one value in one column."""
    return f"{s.locale.value}+{s.locale.other().value}" if s.bilingual else s.locale.value
