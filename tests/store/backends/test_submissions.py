"""Submissions on the Database boundary, on both engines: stored, graded once, counted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.grades import Grade, Reason, Verdict
from bot.grades import TestResult as Result
from bot.store.db import Database
from bot.store.submissions import Outcome, Progress, Standing, SubmissionStore
from bot.types import ChannelRef, User

ALICE = User("test", "u-alice", "Alice")
BOB = User("test", "u-bob", "Bob")
HERE = ChannelRef("test", "c-1", "w-1")
AT = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)

FULL = Grade(
    "fast-power", Verdict.WRONG_ANSWER,
    (Result(1, True, Verdict.ACCEPTED, None, "[2, 10]", "1024", "1024", 0.5),
     Result(2, False, Verdict.WRONG_ANSWER, "expected 1, got 0", cpu_ms=1.25,
                reason=Reason.of("reason.wrong", expected="1", got="0"))),
    output="hi 你好\n", output_dropped=3, notes=("a note",), cpu_ms=1.75, peak_kb=9000,
)  # fmt: skip
ACCEPTED = Grade("fast-power", Verdict.ACCEPTED, (Result(1, True, Verdict.ACCEPTED),))


async def test_the_first_verdict_wins_and_comes_back_whole(backend: Database) -> None:
    store = SubmissionStore(backend)
    first = await store.add(ALICE, "fast-power", "def f(): ...", AT, HERE)
    second = await store.add(BOB, None, "print(1)", AT)
    assert second > first
    assert await store.outcome(first) == Outcome("queued")
    assert await store.finish(first, FULL, AT) is True
    assert await store.finish(first, ACCEPTED, AT) is False  # a retried job's second verdict
    assert await store.outcome(first) == Outcome("graded", FULL)
    assert await store.verdict(first) == "wrong_answer"
    assert await store.fail(first, AT) is False  # graded stays graded
    assert await store.fail(second, AT) is True
    assert await store.outcome(second) == Outcome("failed")
    assert await store.outcome(second + 1) is None


async def test_attempts_are_counted_and_given_back(backend: Database) -> None:
    store = SubmissionStore(backend)
    sid = await store.add(ALICE, "fast-power", "x", AT, HERE)
    assert await store.attempt(sid) == 1
    assert await store.attempt(sid) == 2
    await store.give_back(sid)
    await store.give_back(sid)
    await store.give_back(sid)  # never below zero
    got = await store.get(sid)
    assert got is not None and got.attempts == 0
    assert got.author() == ALICE and got.sent_to() == HERE and got.code == "x"
    assert [s.id for s in await store.unfinished()] == [sid]


async def test_what_admission_reads(backend: Database) -> None:
    store = SubmissionStore(backend)
    a = await store.add(ALICE, "fast-power", "x", AT)
    b = await store.add(BOB, None, "x", AT + timedelta(seconds=10))
    c = await store.add(BOB, "fast-power", "x", AT + timedelta(seconds=20))
    assert (await store.standing(ALICE, "submit", AT)).pending
    assert (await store.ahead(a), await store.ahead(c), await store.ahead()) == (0, 2, 3)
    await store.finish(a, ACCEPTED, AT)
    assert not (await store.standing(ALICE, "submit", AT)).pending
    assert await store.ahead(c) == 1
    later = AT + timedelta(seconds=20)
    assert await store.standing(BOB, "run", AT) == Standing(True, 1, AT + timedelta(seconds=10), 2)
    assert await store.standing(BOB, "submit", AT) == Standing(True, 1, later, 2)
    assert await store.standing(BOB, "submit", later) == Standing(True, 0, None, 2)
    assert b < c
    assert await store.standing(ALICE, "run", AT) == Standing(False, 0, None, 2)


async def test_progress_and_solvers(backend: Database) -> None:
    store = SubmissionStore(backend)
    for user, problem, grade in [
        (ALICE, "fast-power", FULL),
        (ALICE, "fast-power", ACCEPTED),
        (ALICE, "lru-cache", FULL),
        (BOB, "fast-power", ACCEPTED),
    ]:
        await store.finish(await store.add(user, problem, "x", AT), grade, AT)
    await store.add(ALICE, None, "print(1)", AT)  # a run is counted apart from solutions
    assert await store.progress(ALICE) == Progress(("fast-power",), ("lru-cache",), 3, 1)
    assert await store.solvers("fast-power") == 2
    assert await store.solvers("lru-cache") == 0
