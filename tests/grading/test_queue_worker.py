"""A grader's job handler on its own: graded once, scored once, given up on after two deaths;
and the graders' sweep, which defers a submission its bot process stored and never queued.

The handler is called as procrastinate would call it, again for a retried job; the scoring
hook writes to the real activity ledger with the dedupe key `Scores.solved` uses.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.grading.grader import Grader
from bot.grading.queue import TASK, defer, job_app, open_job_queue
from bot.grading.worker import GradingWorker, StalledJobs
from bot.logs import ContextFilter
from bot.store.activity import Act, ActivityStore, ActKind
from bot.store.db import Database
from bot.store.postgres.database import Pool, open_postgres
from bot.store.postgres.db import PostgresDatabase
from bot.store.submissions import SubmissionStore
from bot.types import ChannelRef, User
from tests.fakes import FakeClock
from tests.grading.conftest import reference
from tests.grading.queue_support import grader

ALICE, BOB = User("test", "alice", "Alice"), User("test", "bob", "Bob")
CAROL = User("test", "carol", "Carol")
HERE = ChannelRef("test", "general", "w")
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

__all__ = ["grader"]  # a fixture of this module too


@pytest.fixture
async def pool(postgres_dsn: str) -> AsyncIterator[Pool]:
    async with open_postgres(postgres_dsn, max_size=4) as opened:
        yield opened


@pytest.fixture
def db(pool: Pool) -> Database:
    return PostgresDatabase(pool)


class Recorded:
    """The worker's two outlets: announcements heard, and solves scored into the ledger."""

    def __init__(self, db: Database) -> None:
        self.announced: list[int] = []
        self.activity = ActivityStore(db)

    async def announce(self, submission_id: int) -> None:
        self.announced.append(submission_id)

    async def solved(self, user: User, where: ChannelRef | None, problem: str,
                     at: datetime) -> bool:  # fmt: skip
        act = Act(ActKind.SOLVE, user, where or ChannelRef(user.platform, ""), problem, True,
                  20, at, at.date(), f"solve:{user.platform}:{user.id}:{problem}")  # fmt: skip
        return await self.activity.record(act)


async def test_a_retried_job_grades_nothing_and_scores_nothing_twice(
    db: Database, grader: Grader
) -> None:
    submissions, out, clock = SubmissionStore(db), Recorded(db), FakeClock(NOW)
    worker = GradingWorker(grader, submissions, clock, out.announce, out.solved)
    sid = await submissions.add(ALICE, "fast-power", reference("fast-power"), NOW, HERE)
    await worker.handle(sid)
    await worker.handle(sid)  # the job again: its grader died after recording the verdict
    outcome = await submissions.outcome(sid)
    assert outcome is not None and outcome.state == "graded"
    assert outcome.grade is not None and outcome.grade.verdict.value == "accepted"
    stored = await submissions.get(sid)
    assert stored is not None and stored.attempts == 1  # graded once
    assert await out.activity.points(ALICE) == 20  # scored once
    assert out.announced == [sid, sid]  # whoever waits hears of it either way


async def test_a_job_taken_a_third_time_is_given_up_on(db: Database, grader: Grader) -> None:
    submissions, out = SubmissionStore(db), Recorded(db)
    worker = GradingWorker(grader, submissions, FakeClock(NOW), out.announce, out.solved)
    sid = await submissions.add(ALICE, "fast-power", reference("fast-power"), NOW, HERE)
    for _ in range(2):  # two graders died grading it
        await submissions.attempt(sid)
    await worker.handle(sid)
    outcome = await submissions.outcome(sid)
    assert outcome is not None and (outcome.state, outcome.grade) == ("failed", None)
    assert await out.activity.points(ALICE) == 0
    assert out.announced == [sid]


async def test_each_job_logs_under_an_id_of_its_own(
    db: Database, grader: Grader, caplog: pytest.LogCaptureFixture
) -> None:
    """The `interaction` field of `bot.logs`, for a grader's jobs as for chat commands."""
    caplog.handler.addFilter(ContextFilter("grader"))
    submissions, out = SubmissionStore(db), Recorded(db)
    worker = GradingWorker(grader, submissions, FakeClock(NOW), out.announce, out.solved)
    for who in (ALICE, BOB):
        sid = await submissions.add(who, "fast-power", reference("fast-power"), NOW, HERE)
        for _ in range(2):
            await submissions.attempt(sid)
        await worker.handle(sid)  # given up on, which is logged
    lines = [r for r in caplog.records if "given up on" in r.getMessage()]
    ids = [getattr(r, "interaction", None) for r in lines]
    assert len(ids) == 2 and None not in ids and ids[0] != ids[1]
    assert {getattr(r, "role", None) for r in lines} == {"grader"}


async def test_the_sweep_defers_a_submission_seen_without_a_job_for_a_minute(
    postgres_dsn: str, pool: Pool, db: Database
) -> None:
    """A bot process died between storing a submission and deferring it (`lost`); another's
    job ended without a verdict (`stuck`: it kept finding no sandbox, and procrastinate gave
    up). A grader watching on its own clock defers both once a minute has passed; the row's
    `created_at` is the bot machine's time, here 300 days behind the grader's, and does not
    hasten anything. A submission deferred meanwhile (`sent`) is left alone."""
    submissions, clock = SubmissionStore(db), FakeClock(NOW)
    async with open_job_queue(job_app(postgres_dsn), pool) as app:
        sweep = StalledJobs(app, db, clock, stalled_after=2, every=1, orphaned_after=60).sweep
        code = reference("fast-power")
        lost = await submissions.add(ALICE, "fast-power", code, NOW - timedelta(days=300), HERE)
        stuck = await submissions.add(BOB, "fast-power", code, NOW, HERE)
        await defer(app, stuck)
        await db.execute("UPDATE procrastinate_jobs SET status = 'failed'")
        assert await sweep() == 0  # seen once: they may be between insert and defer
        clock.advance(timedelta(seconds=30))
        sent = await submissions.add(CAROL, "fast-power", code, NOW, HERE)
        assert await sweep() == 0  # seen for 30 s only; `sent` seen without a job, once
        await defer(app, sent)  # its bot process deferred it after all
        clock.advance(timedelta(seconds=31))
        assert await sweep() == 2  # `lost` and `stuck`, a minute without a live job
        clock.advance(timedelta(seconds=60))
        assert await sweep() == 0  # each has its live job now
        jobs = await db.fetch_all(
            "SELECT CAST(args ->> 'submission_id' AS INTEGER), CAST(status AS TEXT) "
            "FROM procrastinate_jobs WHERE task_name = ? ORDER BY 1, 2",
            (TASK,),
        )
    assert [tuple(r) for r in jobs] == [
        (lost, "todo"), (stuck, "failed"), (stuck, "todo"), (sent, "todo")]  # fmt: skip


async def test_the_sweep_deletes_jobs_finished_a_week_ago_hourly(
    postgres_dsn: str, pool: Pool, db: Database
) -> None:
    submissions, clock = SubmissionStore(db), FakeClock(NOW)
    async with open_job_queue(job_app(postgres_dsn), pool) as app:
        sweep = StalledJobs(app, db, clock, stalled_after=2, every=1).sweep
        code = reference("fast-power")
        ids = [await submissions.add(user, "fast-power", code, NOW, HERE)
               for user in (ALICE, BOB, CAROL)]  # fmt: skip
        jobs = [await defer(app, sid) for sid in ids]
        for sid in ids:  # done with (here: given up on), so not queued again
            await submissions.fail(sid, NOW)
        old, failed, recent = jobs
        await db.execute("UPDATE procrastinate_jobs SET status = 'succeeded' WHERE id IN (?, ?)",
                         (old, recent))  # fmt: skip
        await db.execute("UPDATE procrastinate_jobs SET status = 'failed' WHERE id = ?",
                         (failed,))  # fmt: skip
        await db.execute("UPDATE procrastinate_events SET at = at - interval '8 days' "
                         "WHERE job_id IN (?, ?)", (old, failed))  # fmt: skip
        await sweep()  # the first sweep prunes
        left = await db.fetch_all("SELECT id FROM procrastinate_jobs ORDER BY id")
        assert [r[0] for r in left] == [recent]  # the week-old ones went, events and all
        await db.execute("UPDATE procrastinate_events SET at = at - interval '8 days'")
        clock.advance(timedelta(minutes=59))
        await sweep()  # within the hour: no prune
        assert len(await db.fetch_all("SELECT id FROM procrastinate_jobs")) == 1
        clock.advance(timedelta(minutes=1))
        await sweep()
        assert await db.fetch_all("SELECT id FROM procrastinate_jobs") == []
        assert await db.fetch_all("SELECT 1 FROM procrastinate_events") == []
