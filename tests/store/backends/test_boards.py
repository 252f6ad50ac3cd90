"""Leaderboards and standings on both engines: periods, topics, channel and server scope,
ties, the asker's own row, the totals and channels of a week, a problem's solvers."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from bot.store.activity import Act, ActivityStore, ActKind
from bot.store.boards import (
    BoardStore,
    LedgerMark,
    LedgerRow,
    MemberWeek,
    ProblemBoard,
    Scope,
    Solver,
    Standing,
)
from bot.store.db import Database
from bot.types import ChannelRef, User
from tests.store.backends import rows

ALICE, BOB, CAROL = (
    User("t", "alice", "Alice"),
    User("t", "bob", "Bob"),
    User("t", "carol", "Carol"),
)
DAVE, EVE = User("t", "dave", "Dave"), User("t", "eve", "Eve")
FRANK = User("t", "frank", "Frank")
C1, C2 = ChannelRef("t", "c-1", "w-1"), ChannelRef("t", "c-2", "w-1")
ELSEWHERE = ChannelRef("t", "c-9", "w-2")
WEEK = datetime(2026, 3, 2, tzinfo=UTC)  # a Monday
MONTH = datetime(2026, 3, 1, tzinfo=UTC)


def at(day: int, hour: int, month: int = 3) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=UTC)


async def _ledger(db: Database) -> None:
    """This week: Carol 15 (os), Bob 10 then Alice 10 (gpu, a tie Bob reached first), Dave 0.
    This month adds Alice 5 (os) on the 1st; all time adds her 30 for a solve in February."""
    await rows.question(db, "q1", topics=("gpu",))
    await rows.question(db, "q2", topics=("os",))
    acts = [
        (ALICE, C1, ActKind.QUIZ, "q1", 10, at(3, 10)),
        (BOB, C1, ActKind.QUIZ, "q1", 10, at(3, 9)),
        (CAROL, C2, ActKind.QUIZ, "q2", 15, at(3, 11)),
        (CAROL, C2, ActKind.QUIZ, "q1", 0, at(4, 8)),
        (DAVE, C1, ActKind.QUIZ, "q1", 0, at(3, 12)),
        (ALICE, C1, ActKind.QUIZ, "q2", 5, at(1, 10)),
        (ALICE, C2, ActKind.SOLVE, "p1", 30, at(20, 10, month=2)),
        (EVE, ELSEWHERE, ActKind.QUIZ, "q1", 50, at(3, 8)),
    ]
    ledger = ActivityStore(db)
    for i, (user, where, kind, qid, points, when) in enumerate(acts):
        await ledger.record(Act(kind, user, where, qid, points > 0, points, when, when.date(),
                                f"act:{i}"))  # fmt: skip


def _ranks(standings: list[Standing]) -> list[tuple[int, str, int]]:
    return [(s.rank, s.user_id, s.points) for s in standings]


async def test_standings_by_period_topic_and_scope(backend: Database) -> None:
    await _ledger(backend)
    boards = BoardStore(backend)
    week = Scope("t", "w-1", start=WEEK, end=WEEK + timedelta(days=7))
    assert _ranks(await boards.standings(week, "alice")) == [(1, "carol", 15), (2, "bob", 10),
                                                             (3, "alice", 10)]  # fmt: skip
    assert _ranks(await boards.standings(week, "alice", top=1)) == [(1, "carol", 15),
                                                                    (3, "alice", 10)]  # fmt: skip
    assert _ranks(await boards.standings(week, "dave", top=1)) == [(1, "carol", 15)]  # no points
    month = Scope("t", "w-1", start=MONTH, end=at(1, 0, month=4))
    assert _ranks(await boards.standings(month, "x")) == [(1, "alice", 15), (2, "carol", 15),
                                                          (3, "bob", 10)]  # fmt: skip
    assert _ranks(await boards.standings(Scope("t", "w-1"), "x")) == [
        (1, "alice", 45), (2, "carol", 15), (3, "bob", 10)]  # fmt: skip
    assert _ranks(await boards.standings(Scope("t", "w-1", topic="os"), "x")) == [
        (1, "carol", 15), (2, "alice", 5)]  # fmt: skip
    channel = Scope("t", "w-1", channel="c-1", start=WEEK)
    assert _ranks(await boards.standings(channel, "x")) == [(1, "bob", 10), (2, "alice", 10)]
    assert [s.name for s in await boards.standings(channel, "x")] == ["Bob", "Alice"]
    assert await boards.standings(Scope("t", "w-3"), "alice") == []


async def test_boards_fold_in_ledger_rows(backend: Database) -> None:
    boards = BoardStore(backend)
    assert await boards.mark() == LedgerMark(0, 0)
    await _ledger(backend)
    last = (await boards.mark()).last_id
    everyone = sorted(await boards.grouped(Scope("t", "w-1"), last))
    assert everyone == [
        ("alice", "Alice", 45, at(3, 10).isoformat()),
        ("bob", "Bob", 10, at(3, 9).isoformat()),
        ("carol", "Carol", 15, at(3, 11).isoformat()),
        ("dave", "Dave", 0, ""),
    ]
    before = sorted(await boards.grouped(Scope("t", "w-1"), last - 4))  # the first four acts
    assert [(r[0], r[2]) for r in before] == [("alice", 10), ("bob", 10), ("carol", 15)]
    assert await boards.rows_between(last - 2, last) == [
        LedgerRow(
            last - 1, "t", "w-1", "c-2", "alice", "Alice", "p1", 30, at(20, 10, month=2).isoformat()
        ),
        LedgerRow(last, "t", "w-2", "c-9", "eve", "Eve", "q1", 50, at(3, 8).isoformat()),
    ]
    assert await boards.rows_between(last, last) == []
    assert await boards.topic_questions("os") == frozenset({"q2"})
    assert await boards.topic_questions("none") == frozenset()


async def test_a_weeks_totals_channels_and_days(backend: Database) -> None:
    await _ledger(backend)
    boards = BoardStore(backend)
    week = Scope("t", "w-1", start=WEEK, end=WEEK + timedelta(days=7))
    totals = await boards.totals(week)
    assert (totals.answered, totals.right, totals.solved) == (5, 3, 0)
    assert totals.members == {"alice": "Alice", "bob": "Bob", "carol": "Carol", "dave": "Dave"}
    everything = await boards.totals(Scope("t", "w-1"))
    assert (everything.answered, everything.right, everything.solved) == (6, 4, 1)
    channels = await boards.by_channel(week)
    assert {c: set(m) for c, m in channels.items()} == {
        "c-1": {MemberWeek("alice", "Alice", 10, at(3, 10).isoformat(), 1, 1, 0),
                MemberWeek("bob", "Bob", 10, at(3, 9).isoformat(), 1, 1, 0),
                MemberWeek("dave", "Dave", 0, "", 1, 0, 0)},
        "c-2": {MemberWeek("carol", "Carol", 15, at(3, 11).isoformat(), 2, 1, 0)},
    }  # fmt: skip
    alice = {date(2026, 2, 20), date(2026, 3, 1), date(2026, 3, 3)}
    assert await boards.days("t", ["alice", "nobody"]) == {"alice": alice, "nobody": set()}
    assert await boards.days("t", []) == {}


async def test_a_problems_solvers_first_try_fastest_and_hinted(backend: Database) -> None:
    """Speed is ranked by CPU time over the reference's on the grader that judged it, so
    solutions graded on machines of different speeds compare fairly."""
    for user, verdict, when, workspace, cpu, reference in (
        (ALICE, "wrong_answer", at(3, 10), "w-1", None, None),
        (ALICE, "accepted", at(3, 11), "w-1", 12.5, 25.0),  # a slow grader: 0.5x
        (ALICE, "accepted", at(3, 12), "w-1", 8.0, 4.0),  # fewer ms on a fast one, but 2x
        (BOB, "accepted", at(3, 9), None, 20.0, 10.0),  # in private: counts in every workspace
        (CAROL, "wrong_answer", at(3, 9), "w-1", None, None),
        (DAVE, "accepted", at(3, 8), "w-2", 1.0, 10.0),
        (FRANK, "accepted", at(3, 13), "w-1", 0.5, None),  # graded before limits were relative
    ):
        await rows.submission(backend, user, "p1", verdict, when, workspace=workspace,
                              cpu_ms=cpu, reference_ms=reference)  # fmt: skip
    await rows.submission(backend, EVE, "p1", "accepted", at(3, 7), workspace="w-1", state="queued")
    await rows.hint(backend, ALICE, "p1", at(3, 10) + timedelta(minutes=30))  # before her solve
    await rows.hint(backend, BOB, "p1", at(3, 10))  # after his
    board = await BoardStore(backend).problem("t", "w-1", "p1")
    assert board == ProblemBoard(4, (Solver("bob", "Bob", True, 2.0, False),
                                     Solver("alice", "Alice", False, 0.5, True),
                                     Solver("frank", "Frank", True, None, False)))  # fmt: skip
    assert board.first_try == 2 and board.fastest == Solver("alice", "Alice", False, 0.5, True)
    assert await BoardStore(backend).problem("t", "w-1", "p2") == ProblemBoard(0, ())
