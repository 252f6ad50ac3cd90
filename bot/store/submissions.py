"""Submissions: every graded or run snippet, written before grading starts.

`add` stores the code in state `queued`; `finish` records the verdict and timings. A row
still `queued` at start-up belongs to a grading the bot did not live to finish: `unfinished`
lists them so the composition root can grade them again (or mark them `interrupted`). Each
such attempt is counted in the row before it starts (`attempt`), so a submission that takes
the bot down with it is known at the next start, and one that keeps failing is marked
`failed` instead of being tried forever.

With a grading queue (PostgreSQL), the row is also the job's state: a grader records the
verdict with `finish`, which only a `queued` row takes, so the first verdict wins and a
retried job never gives a second; the whole `Grade` is kept as JSON (`grade`) for the bot
process that waits for it (`outcome`). The per-person limits read the same rows
(`standing`), and `ahead` counts the queued rows before one, across every process.

The SQL is portable (the `Database` boundary): `RETURNING` for new ids, `CASE` where SQLite
has scalar `MAX(a, b)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.grades import Grade, Verdict
from bot.store import grade_json
from bot.store.db import Database, Row
from bot.text.code import valid_unicode
from bot.types import ChannelRef, User


@dataclass(frozen=True, slots=True)
class Submission:
    id: int
    platform: str
    user_id: str
    problem_id: str | None
    code: str
    attempts: int = 0  # gradings started again at start-up
    user_name: str = ""
    workspace: str | None = None
    channel: str | None = None  # where it was sent, when known

    def author(self) -> User:
        return User(self.platform, self.user_id, self.user_name)

    def sent_to(self) -> ChannelRef | None:
        return ChannelRef(self.platform, self.channel, self.workspace) if self.channel else None


@dataclass(frozen=True, slots=True)
class Progress:
    """A user's record: problems solved, and their attempts; how many solutions and how
    many `/run` snippets they sent (together, the submissions `/forget me` counts)."""

    solved: tuple[str, ...]
    attempted: tuple[str, ...]
    submissions: int  # solutions of problems
    runs: int = 0  # `/run` snippets


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where a submission stands: its state, and its whole Grade once graded."""

    state: str
    grade: Grade | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """A person's place before admission (`SubmissionStore.standing`)."""

    pending: bool  # a submission of theirs waits for its verdict
    recent: int  # sent in the window asked about
    oldest_recent: datetime | None
    queued: int  # submissions waiting, everyone's


class SubmissionStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(self, user: User, problem_id: str | None, code: str, now: datetime,
                  where: ChannelRef | None = None) -> int:  # fmt: skip
        """Store a submission as queued; `where` it was sent, when known (for boards)."""
        sql = """INSERT INTO submissions (platform, user_id, user_name, problem_id, code, state,
                     created_at, workspace, channel) VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?)
                 RETURNING id"""
        name, code = valid_unicode(user.display_name), valid_unicode(code)  # else SQLite refuses
        params = (user.platform, user.id, name, problem_id, code, now.isoformat(),
                  where.workspace if where else None, where.channel if where else None)  # fmt: skip
        async with self._db.transaction():
            row = await self._db.fetch_one(sql, params)
        assert row is not None
        return int(row[0])

    async def finish(self, submission_id: int, grade: Grade, now: datetime) -> bool:
        """Record the verdict of a queued submission; False if it had one already (or was
        given up on): the first verdict wins."""
        sql = """UPDATE submissions SET state = 'graded', verdict = ?, passed = ?, total = ?,
                     cpu_ms = ?, peak_kb = ?, graded_at = ?, grade = ?, reference_ms = ?
                 WHERE id = ? AND state = 'queued'"""
        params = (grade.verdict.value, grade.passed, len(grade.tests), grade.cpu_ms,
                  grade.peak_kb, now.isoformat(), grade_json.dumps(grade), grade.reference_ms,
                  submission_id)  # fmt: skip
        async with self._db.transaction():
            return await self._db.execute(sql, params) == 1

    async def interrupt(self, submission_id: int) -> None:
        async with self._db.transaction():
            await self._db.execute(
                "UPDATE submissions SET state = 'interrupted' WHERE id = ?", (submission_id,)
            )

    async def fail(self, submission_id: int, now: datetime) -> bool:
        """Give up on a submission whose grading failed again and again (if still queued)."""
        async with self._db.transaction():
            return await self._db.execute(
                "UPDATE submissions SET state = 'failed', graded_at = ? "
                "WHERE id = ? AND state = 'queued'", (now.isoformat(), submission_id)
            ) == 1  # fmt: skip

    async def unfinished(self, platform: str | None = None) -> list[Submission]:
        """Submissions still queued (only `platform`'s members', if named), oldest first."""
        if platform is None:
            rows = await self._db.fetch_all(f"{_COLUMNS} WHERE state = 'queued' ORDER BY id")
        else:
            rows = await self._db.fetch_all(
                f"{_COLUMNS} WHERE state = 'queued' AND platform = ? ORDER BY id", (platform,)
            )
        return [_submission(row) for row in rows]

    async def get(self, submission_id: int) -> Submission | None:
        row = await self._db.fetch_one(f"{_COLUMNS} WHERE id = ?", (submission_id,))
        return None if row is None else _submission(row)

    async def outcome(self, submission_id: int) -> Outcome | None:
        row = await self._db.fetch_one("SELECT state, grade FROM submissions WHERE id = ?",
                                       (submission_id,))  # fmt: skip
        if row is None:
            return None
        return Outcome(row[0], grade_json.loads(row[1]) if row[1] else None)

    async def created_at(self, submission_id: int) -> datetime | None:
        """When the submission was stored (and, on PostgreSQL, queued)."""
        row = await self._db.fetch_one("SELECT created_at FROM submissions WHERE id = ?",
                                       (submission_id,))  # fmt: skip
        return _aware(row[0]) if row is not None and row[0] else None

    async def attempt(self, submission_id: int) -> int:
        """Count one more attempt at grading a leftover submission; returns the count."""
        async with self._db.transaction():
            row = await self._db.fetch_one("UPDATE submissions SET attempts = attempts + 1 "
                                           "WHERE id = ? RETURNING attempts",
                                           (submission_id,))  # fmt: skip
        return int(row[0]) if row else 0

    async def give_back(self, submission_id: int) -> None:
        """Uncount an attempt that ended for the bot's reasons (shutdown, sandbox down)."""
        async with self._db.transaction():
            await self._db.execute("UPDATE submissions SET attempts = CASE WHEN attempts > 0 "
                                   "THEN attempts - 1 ELSE 0 END WHERE id = ?",
                                   (submission_id,))  # fmt: skip

    async def standing(self, user: User, kind: str, since: datetime) -> Standing:
        """What admission weighs, in one round trip: whether `user` has a submission waiting,
        their submissions (kind "submit") or runs ("run") sent since `since`, and how many
        wait in all."""
        solution = "IS NOT NULL" if kind == "submit" else "IS NULL"
        mine = f"FROM submissions WHERE platform = ? AND user_id = ? AND problem_id {solution}"
        row = await self._db.fetch_one(
            "SELECT (SELECT count(*) FROM submissions WHERE state = 'queued' AND platform = ? "
            f"AND user_id = ?), (SELECT count(*) {mine} AND created_at > ?), "
            f"(SELECT min(created_at) {mine} AND created_at > ?), "
            "(SELECT count(*) FROM submissions WHERE state = 'queued')",
            (user.platform, user.id, *(user.platform, user.id, since.isoformat()) * 2),
        )  # fmt: skip
        assert row is not None
        oldest = datetime.fromisoformat(row[2]) if row[2] else None
        return Standing(int(row[0]) > 0, int(row[1]), oldest, int(row[3]))

    async def ahead(self, submission_id: int | None = None) -> int:
        """How many submissions wait for a verdict before this one (None: all that wait)."""
        row = await self._db.fetch_one(
            "SELECT count(*) FROM submissions WHERE state = 'queued' AND id < ?",
            (submission_id if submission_id is not None else _NO_ID,),
        )
        return int(row[0]) if row else 0

    async def verdict(self, submission_id: int) -> str | None:
        row = await self._db.fetch_one("SELECT verdict FROM submissions WHERE id = ?",
                                       (submission_id,))  # fmt: skip
        return None if row is None else row[0]

    async def progress(self, user: User) -> Progress:
        sql = """SELECT problem_id, MAX(CASE WHEN verdict = ? THEN 1 ELSE 0 END)
                 FROM submissions
                 WHERE platform = ? AND user_id = ? AND problem_id IS NOT NULL
                 GROUP BY problem_id ORDER BY problem_id"""
        rows = await self._db.fetch_all(sql, (Verdict.ACCEPTED.value, user.platform, user.id))
        counts = await self._db.fetch_one(
            "SELECT count(problem_id), count(*) - count(problem_id) FROM submissions "
            "WHERE platform = ? AND user_id = ?", (user.platform, user.id))  # fmt: skip
        solved = tuple(r[0] for r in rows if r[1])
        attempted = tuple(r[0] for r in rows if not r[1])
        solutions, runs = (int(counts[0]), int(counts[1])) if counts else (0, 0)
        return Progress(solved, attempted, solutions, runs)

    async def solvers(self, problem_id: str) -> int:
        """How many people have solved a problem (shown with its explanation)."""
        row = await self._db.fetch_one("SELECT count(DISTINCT platform || ':' || user_id) "
                                       "FROM submissions WHERE problem_id = ? AND verdict = ?",
                                       (problem_id, Verdict.ACCEPTED.value))  # fmt: skip
        return int(row[0]) if row else 0


def _submission(row: Row) -> Submission:
    return Submission(*(row[i] for i in range(len(row))))


_COLUMNS = """SELECT id, platform, user_id, problem_id, code, attempts, user_name, workspace,
                     channel FROM submissions"""
_NO_ID = 2**62  # past every id: "before this one" is then every queued row


def _aware(value: object) -> datetime:
    """A stored time as an aware datetime: SQLite keeps ISO text, PostgreSQL a timestamp."""
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return when if when.tzinfo else when.replace(tzinfo=UTC)
