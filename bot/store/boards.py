"""Reading the ledger back as standings: leaderboards, a problem's solvers, a week's totals.

Every query over `activity` reads a range of the `activity_board` index (platform,
workspace, at); a channel or a topic only filters that range. Ranks are computed in SQL
(a window over the grouped rows), so only the top rows and the asker's come back however
many members a workspace has. Ties go to whoever reached their score first: the time of
their last act that scored.

The SQL is written once for SQLite and PostgreSQL (flags are 0/1 integers, so a count of
right answers is a `sum(CASE ...)`, not a sum of booleans), except for one index named to
SQLite's planner (`by_channel`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from bot.grades import Verdict
from bot.store.db import Database, Engine


@dataclass(frozen=True, slots=True)
class Scope:
    """Whose acts a board counts: one workspace (server) of a platform, or one channel of
    it; between `start` (inclusive) and `end` (exclusive), UTC; of one topic's questions."""

    platform: str
    workspace: str
    channel: str | None = None
    start: datetime | None = None
    end: datetime | None = None
    topic: str | None = None

    @property
    def start_iso(self) -> str:
        return self.start.astimezone(UTC).isoformat() if self.start else ""

    @property
    def end_iso(self) -> str:
        return self.end.astimezone(UTC).isoformat() if self.end else ""


@dataclass(frozen=True, slots=True)
class LedgerMark:
    """Where the ledger stands: its last row id, and how many times members were forgotten
    (a count kept beside the ledger, so every process sees a `/forget me` made in another)."""

    last_id: int
    forgets: int


# How far below the ledger's last row id a row may still become visible. SQLite has one
# writer: rows are visible in id order. On PostgreSQL an id is taken at INSERT and seen at
# COMMIT, so a transaction in flight can commit below rows already read; at most one
# ledger row per transaction in flight, so this bounds processes × pool connections.
LATE_ROWS = {"sqlite": 0, "postgres": 1024}
FORGETS = "ledger_forgets"  # the `meta` key counting members forgotten (`MemberData.forget`)


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """One act as a board folds it in."""

    id: int
    platform: str
    workspace: str
    channel: str
    user_id: str
    name: str
    question_id: str
    points: int
    at: str  # UTC ISO


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    user_id: str
    name: str
    points: int


@dataclass(frozen=True, slots=True)
class Solver:
    user_id: str
    name: str
    first_try: bool  # their first graded submission was accepted
    relative_cpu: float | None  # their fastest accepted solution's CPU time, as a multiple of
    # the reference's on the grader that judged it (comparable across graders)
    hinted: bool  # they took a hint before their first accepted solution


@dataclass(frozen=True, slots=True)
class ProblemBoard:
    attempted: int  # members who submitted a graded solution
    solvers: tuple[Solver, ...]  # in the order they first solved it

    @property
    def first_try(self) -> int:
        return sum(s.first_try for s in self.solvers)

    @property
    def fastest(self) -> Solver | None:
        timed = [s for s in self.solvers if s.relative_cpu is not None]
        return min(timed, key=lambda s: s.relative_cpu or 0.0) if timed else None


@dataclass(frozen=True, slots=True)
class Totals:
    """A scope's activity: quick checks answered and right, problems solved, who acted."""

    answered: int = 0
    right: int = 0
    solved: int = 0
    members: dict[str, str] = field(default_factory=dict)  # who acted: id -> name


@dataclass(frozen=True, slots=True)
class MemberWeek:
    """One member's acts in one channel over a span."""

    user_id: str
    name: str
    points: int
    reached: str  # when they reached `points` (UTC ISO), for ties
    answered: int
    right: int
    solved: int


class BoardStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def standings(self, scope: Scope, asker: str, top: int = 10) -> list[Standing]:
        """The `top` members by points in `scope`, and the asker's row wherever it ranks."""
        where, params = _where(scope)
        sql = f"""WITH board AS (
                      SELECT user_id, max(user_name) AS name, sum(points) AS total,
                             max(CASE WHEN points > 0 THEN at END) AS reached
                      FROM activity WHERE {where} GROUP BY user_id HAVING sum(points) > 0),
                  ranked AS (
                      SELECT *, row_number() OVER (ORDER BY total DESC, reached, user_id) AS rank
                      FROM board)
                  SELECT rank, user_id, name, total FROM ranked
                  WHERE rank <= ? OR user_id = ? ORDER BY rank"""
        rows = await self._db.fetch_all(sql, (*params, top, asker))
        return [Standing(int(r[0]), str(r[1]), str(r[2]), int(r[3])) for r in rows]

    @property
    def late_rows(self) -> int:
        """How far below the last row id a row may still appear (`LATE_ROWS`)."""
        return LATE_ROWS[self._db.engine]

    async def mark(self) -> LedgerMark:
        row = await self._db.fetch_one(
            "SELECT (SELECT coalesce(max(id), 0) FROM activity), (SELECT coalesce(max(CAST("
            f"value AS INTEGER)), 0) FROM meta WHERE key = '{FORGETS}')"
        )
        return LedgerMark(int(row[0]), int(row[1])) if row else LedgerMark(0, 0)

    async def grouped(self, scope: Scope, upto: int) -> list[tuple[str, str, int, str]]:
        """Every member of `scope` up to ledger row `upto`: (id, name, points, reached)."""
        where, params = _where(scope)
        rows = await self._db.fetch_all(
            f"""SELECT user_id, max(user_name), sum(points),
                       coalesce(max(CASE WHEN points > 0 THEN at END), '')
                FROM activity WHERE {where} AND id <= ? GROUP BY user_id""",
            (*params, upto),
        )
        return [(str(r[0]), str(r[1]), int(r[2]), str(r[3])) for r in rows]

    async def rows_between(self, after: int, upto: int) -> list[LedgerRow]:
        """The ledger's rows written after row `after`, up to `upto` (a primary key range)."""
        rows = await self._db.fetch_all(
            """SELECT id, platform, workspace, channel, user_id, user_name, question_id, points,
                      at FROM activity WHERE id > ? AND id <= ?""",
            (after, upto),
        )
        return [LedgerRow(int(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[5]),
                          str(r[6]), int(r[7]), str(r[8])) for r in rows]  # fmt: skip

    async def topic_questions(self, topic: str) -> frozenset[str]:
        rows = await self._db.fetch_all(
            "SELECT question_id FROM question_topics WHERE topic = ?", (topic,)
        )
        return frozenset(str(r[0]) for r in rows)

    async def totals(self, scope: Scope) -> Totals:
        where, params = _where(scope)
        rows = await self._db.fetch_all(
            f"""SELECT user_id, max(user_name), {_COUNTS}
                FROM activity WHERE {where} GROUP BY user_id""",
            params,
        )
        answered, right, solved = (sum(int(r[i]) for r in rows) for i in (2, 3, 4))
        return Totals(answered, right, solved, {str(r[0]): str(r[1]) for r in rows})

    async def by_channel(self, scope: Scope) -> dict[str, list[MemberWeek]]:
        """Every channel's members and their acts in `scope` (a workspace and a span), in one
        pass over the index range: the weekly summaries of a thousand channels share it. The
        index is named: grouping by channel tempts the planner to `activity_channel`, which
        has no time range without a channel and would read the workspace's whole history
        (PostgreSQL's planner, which takes no such hint, weighs the ranges itself)."""
        where, params = _where(scope)
        rows = await self._db.fetch_all(
            f"""SELECT channel, user_id, max(user_name), sum(points),
                       coalesce(max(CASE WHEN points > 0 THEN at END), ''), {_COUNTS}
                FROM activity {_BOARD_INDEX[self._db.engine]} WHERE {where}
                GROUP BY channel, user_id""",
            params,
        )
        found: dict[str, list[MemberWeek]] = {}
        for r in rows:
            member = MemberWeek(str(r[1]), str(r[2]), int(r[3]), str(r[4]), int(r[5]), int(r[6]),
                                int(r[7]))  # fmt: skip
            found.setdefault(str(r[0]), []).append(member)
        return found

    async def days(self, platform: str, members: Collection[str]) -> dict[str, set[date]]:
        """The local days each of `members` practised (for their streaks), in one query."""
        if not members:
            return {}
        marks = ",".join("?" * len(members))
        rows = await self._db.fetch_all(
            f"SELECT DISTINCT user_id, day FROM activity WHERE platform = ? "
            f"AND user_id IN ({marks})",
            (platform, *members),
        )
        found: dict[str, set[date]] = {m: set() for m in members}
        for r in rows:
            found[str(r[0])].add(date.fromisoformat(r[1]))
        return found

    async def problem(self, platform: str, workspace: str, problem_id: str) -> ProblemBoard:
        """Who solved `problem_id` in a workspace (submissions sent outside any workspace,
        in private, count too), how, and how fast."""
        ok = Verdict.ACCEPTED.value
        rows = await self._db.fetch_all(
            """WITH mine AS (
                    SELECT user_id, max(user_name) AS name, min(id) AS first_id,
                           min(CASE WHEN verdict = ? THEN id END) AS ok_id,
                           min(CASE WHEN verdict = ? THEN created_at END) AS ok_at,
                           min(CASE WHEN verdict = ? AND reference_ms > 0
                                    THEN cpu_ms / reference_ms END) AS cpu
                    FROM submissions
                    WHERE problem_id = ? AND platform = ? AND state = 'graded'
                      AND coalesce(workspace, ?) = ?
                    GROUP BY user_id)
                SELECT user_id, name, ok_id, ok_id = first_id, cpu, EXISTS (
                           SELECT 1 FROM hints_taken h WHERE h.platform = ?
                           AND h.user_id = mine.user_id AND h.problem_id = ?
                           AND h.taken_at < mine.ok_at)
                FROM mine ORDER BY ok_at IS NULL, ok_at, user_id""",
            (ok, ok, ok, problem_id, platform, workspace, workspace, platform, problem_id),
        )
        solvers = tuple(
            Solver(str(r[0]), str(r[1]), bool(r[3]), None if r[4] is None else float(r[4]),
                   bool(r[5]))
            for r in rows if r[2] is not None
        )  # fmt: skip
        return ProblemBoard(len(rows), solvers)


# A member's quick checks answered, those right, and problems solved, over grouped rows.
_COUNTS = """sum(CASE WHEN kind = 'quiz' THEN 1 ELSE 0 END),
             sum(CASE WHEN kind = 'quiz' AND correct = 1 THEN 1 ELSE 0 END),
             sum(CASE WHEN kind = 'solve' THEN 1 ELSE 0 END)"""

# SQLite's planner is told which index serves a span of a workspace (see `by_channel`).
_BOARD_INDEX: dict[Engine, str] = {"sqlite": "INDEXED BY activity_board", "postgres": ""}


def _where(scope: Scope) -> tuple[str, tuple[object, ...]]:
    """The filter of `scope` over `activity`: the index's range first, then the rest."""
    clauses, params = ["platform = ?", "workspace = ?"], [scope.platform, scope.workspace]
    if scope.start is not None:
        clauses.append("at >= ?")
        params.append(scope.start_iso)
    if scope.end is not None:
        clauses.append("at < ?")
        params.append(scope.end_iso)
    if scope.channel is not None:
        clauses.append("channel = ?")
        params.append(scope.channel)
    if scope.topic is not None:
        clauses.append("question_id IN (SELECT question_id FROM question_topics WHERE topic = ?)")
        params.append(scope.topic)
    return " AND ".join(clauses), tuple(params)
