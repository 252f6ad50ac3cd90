"""The grader process's side of the queue (`studybot grader`): take a job, grade, record once.

`GradingWorker.handle(submission_id)` is the procrastinate task. It reads the submission,
counts the attempt in its row before grading (as start-up recovery does,
bot/grading/service.py), grades it in this process's sandbox, records the verdict with
`finish` (which only a `queued` row takes: the first verdict wins), scores an accepted
solution through `on_accepted`, and announces the outcome to the waiting bot process.

A grader killed mid-job (SIGKILL, the OOM killer, a lost machine) stops heartbeating; every
grader's `StalledJobs` loop looks for jobs held by workers silent for `stalled_after`
seconds and puts them back in the queue, and another grader takes them. The row's attempt
count bounds that: a job taken a third time (it took its grader down twice) is marked
`failed`, which the waiting process tells its author, and never graded again.

A retried job whose row already has its verdict (the grader died after `finish`) grades
nothing: it scores again (idempotent: the ledger's dedupe keys) and announces again, so the
solution scores exactly once and the waiting process hears of it, whichever grader or bot
process died meanwhile.

A submission whose bot process died between storing and deferring it (the row is `queued`,
no job names it) is deferred by the same loop once this grader has seen it so for
`orphaned_after` seconds of its own clock. The row's `created_at` is not used for that: it
is the bot machine's time, which a grader on another machine (or a bot under a test's
clock) need not agree with. Watching needs no agreement, and a row merely caught between its
insert and its defer is never seen without a job for a minute.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

import procrastinate

from bot.errors import GradingUnavailable
from bot.grades import Grade, Verdict
from bot.grading.grader import Grader
from bot.grading.queue import QUEUE, TASK, defer
from bot.grading.service import MAX_ATTEMPTS, OnAccepted, grade_stored
from bot.logs import interaction
from bot.ports import Clock, Metrics, NoMetrics
from bot.store.db import Database
from bot.store.submissions import Submission, SubmissionStore

log = logging.getLogger(__name__)

Announce = Callable[[int], Awaitable[None]]


class GradingWorker:
    def __init__(self, grader: Grader, submissions: SubmissionStore, clock: Clock,
                 announce: Announce, on_accepted: OnAccepted | None = None,
                 metrics: Metrics | None = None) -> None:  # fmt: skip
        """`metrics` hears how long each job waited in the queue before it was taken."""
        self.grader, self.submissions, self._clock = grader, submissions, clock
        self._announce, self._on_accepted = announce, on_accepted
        self._metrics: Metrics = metrics or NoMetrics()

    def register(self, app: procrastinate.App) -> None:
        """Make `handle` the queue's task on `app`. A job that raised is tried again a
        second later (the row's attempts decide when to give up; an attempt lost to the
        sandbox's absence is given back, so it may take one more)."""
        retry = procrastinate.RetryStrategy(max_attempts=MAX_ATTEMPTS + 1, wait=1)
        app.task(name=TASK, queue=QUEUE, retry=retry)(self.handle)

    async def handle(self, submission_id: int) -> None:
        """One job; its log lines share an id, as a chat interaction's do (`bot.logs`)."""
        with interaction():
            await self._handle(submission_id)

    async def _handle(self, submission_id: int) -> None:
        s = await self.submissions.get(submission_id)
        outcome = await self.submissions.outcome(submission_id)
        if s is None or outcome is None:
            return  # forgotten (`/forget me`) while it waited
        if outcome.state != "queued":
            await self._settled(s, outcome.grade)
            return
        await self._waited(submission_id)
        await self._settled(s, await self._grade(s))

    async def _waited(self, submission_id: int) -> None:
        if (queued := await self.submissions.created_at(submission_id)) is not None:
            self._metrics.queue_wait(max(0.0, (self._clock.now() - queued).total_seconds()))

    async def _grade(self, s: Submission) -> Grade | None:
        """Grade a queued submission and record the verdict (None: it was not graded)."""
        problem = self.grader.problem(s.problem_id) if s.problem_id else None
        if s.problem_id and problem is None:
            await self.submissions.interrupt(s.id)
            return None
        attempt = await self.submissions.attempt(s.id)
        if attempt > MAX_ATTEMPTS:  # it took its grader down every time
            log.warning("submission %d given up on after %d attempts", s.id, attempt - 1)
            await self.submissions.fail(s.id, self._clock.now())
            return None
        try:
            grade = await grade_stored(self.grader, self.submissions, s, problem)
        except (GradingUnavailable, asyncio.CancelledError):
            raise
        except Exception:
            log.exception("grading submission %d raised (attempt %d)", s.id, attempt)
            if attempt < MAX_ATTEMPTS:
                raise  # procrastinate tries the job again
            await self.submissions.fail(s.id, self._clock.now())
            return None
        await self.submissions.finish(s.id, grade, self._clock.now())
        return grade

    async def _settled(self, s: Submission, grade: Grade | None) -> None:
        """Wake whoever waits, then score an accepted solution. The verdict is recorded
        already, so the reply need not wait for the points; a grader lost before scoring
        leaves the job unacknowledged, and its retry scores (again is harmless: the
        ledger's dedupe key)."""
        await self._announce(s.id)
        accepted = grade is not None and grade.verdict is Verdict.ACCEPTED
        if accepted and s.problem_id and self._on_accepted is not None:
            await self._on_accepted(s.author(), s.sent_to(), s.problem_id, self._clock.now())


KEEP_FINISHED = timedelta(days=7)  # finished jobs kept for inspection, then deleted
PRUNE_EVERY = timedelta(hours=1)


class StalledJobs:
    """Every grader's loop that keeps the queue moving when graders die, and the queue's
    table small: jobs finished more than `KEEP_FINISHED` ago are deleted hourly (a job per
    submission otherwise piles up for ever; the submission's row keeps its verdict)."""

    def __init__(self, app: procrastinate.App, db: Database, clock: Clock, *,
                 stalled_after: float, every: float,
                 orphaned_after: float = 60.0) -> None:  # fmt: skip
        self._app, self._db, self._clock = app, db, clock
        self._stalled_after, self._every, self._orphaned_after = (
            stalled_after,
            every,
            orphaned_after,
        )
        self._unclaimed_since: dict[int, datetime] = {}
        self._pruned: datetime | None = None

    async def run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:  # the database gone for a moment: try again next time
                log.exception("looking for stalled grading jobs failed")
            await asyncio.sleep(self._every)

    async def sweep(self) -> int:
        """Put back the jobs of silent workers, defer orphaned submissions; how many."""
        manager = self._app.job_manager
        stalled = list(await manager.get_stalled_jobs(
            queue=QUEUE, task_name=TASK, seconds_since_heartbeat=self._stalled_after))  # fmt: skip
        for job in stalled:
            log.warning("grading job %s stalled (its grader went silent); retrying", job.id)
            await manager.retry_job(job)
        await manager.prune_stalled_workers(self._stalled_after)
        orphans = await self._orphans()
        for submission_id in orphans:
            await defer(self._app, submission_id)
        await self._prune()
        return len(stalled) + len(orphans)

    async def _prune(self) -> None:
        """Delete the jobs (and their events) that finished, well or not, `KEEP_FINISHED`
        ago, at most every `PRUNE_EVERY` (procrastinate's own query; it reads the events)."""
        now = self._clock.now()
        if self._pruned is not None and now - self._pruned < PRUNE_EVERY:
            return
        self._pruned = now
        await self._app.job_manager.delete_old_jobs(
            nb_hours=int(KEEP_FINISHED / timedelta(hours=1)), queue=QUEUE, include_failed=True
        )

    async def _orphans(self) -> list[int]:
        """Queued submissions no live job names, seen so for `orphaned_after` seconds.

        Only live jobs (waiting or running) count: finished ones pile up in the table (a
        partial index of procrastinate's covers the live ones, so this stays cheap), and a
        queued row whose job ended without a verdict (it kept raising `GradingUnavailable`,
        the sandbox down) is queued again rather than left to block its author."""
        rows = await self._db.fetch_all(
            """SELECT s.id FROM submissions s WHERE s.state = 'queued'
               AND NOT EXISTS (SELECT 1 FROM procrastinate_jobs j
                               WHERE j.status IN ('todo', 'doing') AND j.task_name = ?
                                 AND j.args ->> 'submission_id' = CAST(s.id AS TEXT))""",
            (TASK,),
        )
        now = self._clock.now()
        seen = {int(r[0]): self._unclaimed_since.get(int(r[0]), now) for r in rows}
        self._unclaimed_since = seen  # rows deferred or graded meanwhile are forgotten
        lapsed = timedelta(seconds=self._orphaned_after)
        return sorted(sid for sid, since in seen.items() if now - since >= lapsed)
