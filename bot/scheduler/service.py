"""The scheduler itself: what happens when platforms attach, the loop, a tick, `daily now`.
The design is in the package's docstring (`bot/scheduler/__init__.py`)."""

from __future__ import annotations

import asyncio
import enum
import logging
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from bot.answers.service import Answers
from bot.learning.scores import Scores
from bot.platforms import Platforms
from bot.ports import Clock, Metrics, NoMetrics
from bot.schedule.model import Schedule
from bot.schedule.picker import choose
from bot.scheduler.changes import Changes
from bot.scheduler.leases import Leases, process_name
from bot.scheduler.plan import AnswerJob, Job, Plan, QuestionJob, RetryJob, SummaryJob
from bot.scheduler.poster import Poster, new_post
from bot.scheduler.reads import TickReads
from bot.scheduler.summary import Summaries
from bot.store.questions import QuestionStore
from bot.store.quizzes import QuizStore
from bot.store.schedules import Post, ScheduleStore
from bot.store.submissions import SubmissionStore

log = logging.getLogger(__name__)
NOTHING_MATCHES = "no question matches this schedule's topic filter"


@dataclass(frozen=True, slots=True)
class SchedulerConfig:
    grace: timedelta = timedelta(hours=1)
    retry_delays: tuple[timedelta, ...] = (
        timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10), timedelta(minutes=30),
    )  # fmt: skip
    concurrency: int = 64  # posts in flight at once when many channels share a minute
    skipped_log_limit: int = 7
    # Other processes on the same database: how often to look for their schedule changes
    # and lapsed claims (the loop wakes at least this often) and to renew this process's
    # claims; how long a claim holds without renewal (then a live process takes it over).
    watch: timedelta = timedelta(seconds=10)
    lease: timedelta = timedelta(seconds=60)


class NowOutcome(enum.Enum):
    """What `daily now` did, so the command can say it in a sentence."""

    POSTED = "posted"
    NOT_ATTACHED = "not_attached"  # the channel's platform is not connected
    DUPLICATE = "duplicate"  # a post for this very second was claimed already
    PAUSED = "paused"  # nothing to post, or refused for good: the schedule says why
    RETRYING = "retrying"  # refused for now; retried later like any post


class Scheduler:
    def __init__(
        self,
        ledger: ScheduleStore,
        questions: QuestionStore,
        clock: Clock,
        platforms: Platforms,
        config: SchedulerConfig = SchedulerConfig(),
        submissions: SubmissionStore | None = None,
        quizzes: QuizStore | None = None,
        scores: Scores | None = None,
        summaries: Summaries | None = None,
        owner: str | None = None,
        metrics: Metrics | None = None,
        answers: Answers | None = None,
    ) -> None:
        self._ledger, self._questions, self._clock = ledger, questions, clock
        self._platforms, self._config = platforms, config
        self._metrics: Metrics = metrics or NoMetrics()  # posts sent, late, missed
        self._changed = asyncio.Event()
        self._plan = Plan(self._changed.set)
        # Schedules on connected platforms, kept current by `schedule_changed` and by the
        # poster's pauses, so a post does not read its schedule back from the database.
        self._roster: dict[int, Schedule] = {}
        self._leases = Leases(ledger, clock, owner or process_name(), config.lease)
        self._changes = Changes(ledger)
        self._poster = Poster(ledger, platforms, clock, self._plan, self._roster,
                              config.retry_delays, submissions, quizzes, scores,
                              self._leases, self._metrics, answers)  # fmt: skip
        self._summaries = summaries
        self._limit = asyncio.Semaphore(config.concurrency)
        self._loaded: set[str] = set()  # platforms whose schedules this run has planned
        self._loading = asyncio.Lock()
        self._stopping = False
        platforms.subscribe(self)

    # --- platforms ------------------------------------------------------------------------

    async def start(self) -> None:
        """Catch up with every platform attached before the scheduler was subscribed."""
        for name in sorted(self._platforms.names):
            await self.attached(name)

    async def attached(self, name: str) -> None:
        """A platform attached: on its first attach in this run, plan its schedules and
        recover what an earlier run left unfinished there; every time, deliver the posts
        that waited for it; then wake the loop."""
        async with self._loading:
            if name not in self._loaded:
                self._loaded.add(name)
                await self._load(name)
            now = self._clock.now()
            for post in self._poster.parked.pop(name, []):
                await self._recover(post, now)
        self._changed.set()

    def detached(self, name: str) -> None:
        """Nothing to undo: the plan stays, and posts due meanwhile park in the poster."""
        log.info("scheduler: %s detached; its posts wait for it", name)

    async def _load(self, platform: str) -> None:
        """Plan `platform`'s schedules; recover its pending posts whose claims lapsed (a
        claim still held belongs to a live process: it is taken over only if that one dies)
        and its unanswered questions."""
        now = self._clock.now()
        await self._changes.start()
        schedules = await self._ledger.on_platforms(frozenset({platform}))
        self._roster.update({s.id: s for s in schedules})
        last_dues = await self._ledger.last_question_dues()
        for schedule in schedules:
            if not schedule.paused:
                after = self._resume_after(schedule, last_dues.get(schedule.id), now)
                self._plan.schedule(schedule, after, since=now - self._config.grace)
        ids = {s.id for s in schedules}
        for post in await self._leases.take_over(frozenset({platform})):
            await self._recover(post, now)
        for post in await self._ledger.unanswered():
            if post.schedule_id in ids:
                self._plan.answer(self._roster[post.schedule_id], post)
        log.info("scheduler: %d schedule(s) on %s loaded", len(schedules), platform)

    def _resume_after(self, schedule: Schedule, last: datetime | None, now: datetime) -> datetime:
        """Where the schedule picks up: after its last post, but never before the grace window."""
        floor = now - self._config.grace
        if last is not None and last < floor:
            self._log_skipped(schedule, last, floor)
        return max(last, floor) if last is not None else floor

    def _log_skipped(self, schedule: Schedule, last: datetime, floor: datetime) -> None:
        missed = [t for t in schedule.slot.next_after(last, self._config.skipped_log_limit)
                  if t <= floor]  # fmt: skip
        for _ in missed:
            self._metrics.daily_post("missed")
        if missed:
            shown = ", ".join(t.astimezone(schedule.zone).isoformat() for t in missed)
            log.warning("schedule %d: skipped slot(s) missed by more than the grace period: %s",
                        schedule.id, shown)  # fmt: skip

    async def _recover(self, post: Post, now: datetime) -> None:
        """A post claimed by an earlier run, or by a process that died, and never confirmed
        (see the package docstring)."""
        if post.part == "question" and post.due_at < now - self._config.grace:
            await self._ledger.mark_attempt(post, "not confirmed before a restart", final=True)
            self._metrics.daily_post("missed")
            log.warning("schedule %d slot %s: unconfirmed question given up after restart",
                        post.schedule_id, post.slot)  # fmt: skip
            return
        self._plan.retry(post, now)

    # --- the loop ---------------------------------------------------------------------------

    async def run(self) -> None:
        """Catch up, then post what is due and sleep until the next due time (or the next
        look at the other processes' work), until `stop` (or cancelled). Meanwhile a
        heartbeat renews this process's claims, even through a long tick."""
        await self.start()
        heartbeat = asyncio.create_task(self._heartbeat(), name="scheduler-heartbeat")
        try:
            while not self._stopping:
                await self.tick()
                await self._sleep()
        finally:
            heartbeat.cancel()
            await asyncio.gather(heartbeat, return_exceptions=True)

    async def _heartbeat(self) -> None:
        while True:
            await self._clock.sleep_until(self._clock.now() + self._config.watch)
            try:
                reachable = self._reachable()
                await self._leases.renew(reachable)
                if self._summaries is not None:
                    await self._summaries.renew(self._leases.lease(), reachable)
            except Exception:  # the next beat tries again; a lease outlives several
                log.exception("scheduler: renewing claims failed")

    def _reachable(self) -> frozenset[str]:
        """The platforms whose schedules are planned here and that are attached now."""
        return frozenset(self._loaded & set(self._platforms.names))

    async def sync(self) -> None:
        """Catch up with the other processes on this database: re-plan the schedules they
        changed, and take over the posts whose claimant stopped renewing its lease. A failure
        is logged, not raised: the tick goes on with what this process knows, and the next
        one looks again."""
        try:
            await self._sync()
        except Exception:
            log.exception("scheduler: looking at the other processes' work failed")

    async def _sync(self) -> None:
        found = await self._changes.since(self._roster, frozenset(self._loaded))
        now = self._clock.now()
        for schedule in found.changed:
            self._replan(schedule, now)
        for schedule_id in found.removed:
            self._plan.changed(schedule_id)
            self._roster.pop(schedule_id, None)
        for post in await self._leases.take_over(self._reachable()):
            log.warning("schedule %d slot %s %s: claim lapsed, taken over",
                        post.schedule_id, post.slot, post.part)  # fmt: skip
            await self._recover(post, now)
        await self._summaries_taken_over(now)

    async def _summaries_taken_over(self, now: datetime) -> None:
        """Send the weekly summaries whose claimant died before sending them."""
        if self._summaries is None:
            return
        since = now - self._config.grace
        for schedule_id, due in await self._summaries.take_over(
            self._leases.lease(), since, self._reachable()
        ):
            schedule = self._roster.get(schedule_id)
            log.warning("schedule %d: the summary due %s lapsed, taken over", schedule_id, due)
            if schedule is not None:
                await self._summaries.send(schedule, due)

    def stop(self) -> None:
        """Ask `run` to return once the tick in progress is done, its sends recorded: a
        stopped bot then leaves no sent post looking unsent, to be sent again at start."""
        self._stopping = True
        self._changed.set()

    def next_due(self) -> datetime | None:
        return self._plan.next_due()

    async def tick(self) -> None:
        """Do every job that is due now, up to `concurrency` at a time.

        First `sync` with the other processes (one read when nothing changed, one write).
        Then the questions, in batches (`_batches`): choose each, claim the batch in one
        transaction, and send it while the next batch is chosen. A thousand channels due in
        the same minute cost a few dozen database round trips, not thousands."""
        await self.sync()
        due = self._plan.take_due(self._clock.now())
        if not due:
            return
        reads = TickReads(self._ledger, self._questions)
        asking = [job for job in due if isinstance(job, QuestionJob)]
        await reads.prefetch_cycles(job.schedule_id for job in asking)
        others = [job for job in due if not isinstance(job, QuestionJob)]
        work = [self._start(partial(self._do, job, reads), job) for job in others]
        try:
            for batch in self._batches(asking):
                try:
                    claimed = await self._claim(batch, reads)
                except Exception:  # its next slots are planned; the claimed ones still go out
                    log.exception("scheduler: claiming %d question(s) failed", len(batch))
                    continue
                work += [self._start(partial(self._poster.send, p, reads), p) for p in claimed]
            await asyncio.gather(*work)
        except BaseException:
            for task in work:  # cancelled (the process is stopping): nothing left running
                task.cancel()
            raise
        await self._poster.flush()

    def _batches(self, asking: list[QuestionJob]) -> list[list[QuestionJob]]:
        """The questions of a tick in batches of `concurrency`, each claimed in its own
        transaction and sent while the next is chosen, so the first posts leave at once.
        Each process starts at its own batch (from its name), so processes due at the same
        instant mostly claim different batches instead of all racing for the first."""
        size = self._config.concurrency
        batches = [asking[i : i + size] for i in range(0, len(asking), size)]
        start = zlib.crc32(self._leases.owner.encode()) % len(batches) if batches else 0
        return batches[start:] + batches[:start]

    def _start(self, work: Callable[[], Awaitable[object]], what: object) -> asyncio.Task[None]:
        return asyncio.create_task(self._guarded(work, what), name="scheduled-job")

    async def _claim(self, batch: list[QuestionJob], reads: TickReads) -> list[Post]:
        """Plan each job's next question; choose and claim the questions of the slots no
        other process claimed yet (choosing is most of a tick's work before sending); plan
        the answers of those another process claimed: whoever claims an answer first posts
        it, so it follows even if the question's sender dies."""
        due = [(job, s) for job in batch if (s := self._plan_next(job)) is not None]
        slots = [(s.id, s.local_date(job.due)) for job, s in due]
        taken = await self._ledger.questions_claimed(slots)
        posts = [post for (job, s), slot in zip(due, slots, strict=True) if slot not in taken
                 and (post := await self._choose(s, job.due, slot[1], reads))]  # fmt: skip
        claimed = await self._ledger.claim_all(posts, self._leases.lease()) if posts else []
        mine = {(p.schedule_id, p.slot) for p in claimed}
        for (job, s), slot in zip(due, slots, strict=True):
            if slot not in mine:
                self._plan.answer_of(s, slot[1], job.due)
        return claimed

    async def _guarded(self, work: Callable[[], Awaitable[object]], what: object) -> None:
        async with self._limit:
            try:
                await work()
            except Exception:
                log.exception("scheduled job %r failed", what)

    async def _do(self, job: Job, reads: TickReads) -> None:
        if isinstance(job, AnswerJob):
            await self._poster.answer(job.schedule_id, job.slot, reads)
        elif isinstance(job, RetryJob):
            await self._poster.resend(job.post, reads)
        elif isinstance(job, SummaryJob):
            await self._summary(job)

    def _plan_next(self, job: QuestionJob) -> Schedule | None:
        """The schedule a question job posts for, if still current; plans its next job."""
        if not self._plan.current(job):
            return None  # the schedule changed since this job was planned
        schedule = self._roster.get(job.schedule_id)
        if schedule is None or schedule.paused:
            return None
        self._plan.question(schedule, job.due)
        return schedule

    async def _summary(self, job: SummaryJob) -> None:
        """A weekly summary job: post it, and plan the next one."""
        schedule = self._roster.get(job.schedule_id)
        if not self._plan.current(job) or schedule is None or schedule.paused:
            return  # changed or paused since planned: its current plan has its own job
        self._plan.summary(schedule, job.due)
        if self._summaries is not None and schedule.weekly_summary:
            await self._summaries.post(schedule, job.due, self._leases.lease())

    async def _choose(self, schedule: Schedule, due: datetime, slot: str,
                      reads: TickReads) -> Post | None:  # fmt: skip
        pool = partial(reads.pool, server=schedule.channel.server)
        choice = await choose(reads.asked, pool, schedule, schedule.kind_on(due), slot)
        if choice is None:
            await self._poster.pause(schedule.id, NOTHING_MATCHES)
            return None
        question_id, kind, cycle = choice
        return new_post(schedule.id, slot, "question", question_id, kind, cycle, due)

    async def _sleep(self) -> None:
        """Until the earliest job is due or a schedule changes; both tasks are kept and reaped."""
        if self._stopping:
            return
        self._changed.clear()
        waiters: set[asyncio.Task[object]] = {
            asyncio.create_task(self._changed.wait(), name="schedule-changed")
        }
        look = self._clock.now() + self._config.watch  # the other processes' work
        until = min(due, look) if (due := self._plan.next_due()) is not None else look
        waiters.add(asyncio.create_task(self._clock.sleep_until(until), name="schedule-sleep"))
        try:
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in waiters:
                task.cancel()
            await asyncio.gather(*waiters, return_exceptions=True)

    # --- commands ---------------------------------------------------------------------------

    async def schedule_changed(self, schedule_id: int) -> None:
        """Re-plan one schedule after a command changed it, and wake the loop."""
        schedule = await self._ledger.get(schedule_id)
        if schedule is None or schedule.channel.platform not in self._loaded:
            self._plan.changed(schedule_id)
            self._roster.pop(schedule_id, None)  # planned, if at all, when it attaches
        else:
            self._replan(schedule, self._clock.now())
        self._changed.set()

    def _replan(self, schedule: Schedule, now: datetime) -> None:
        """Drop the schedule's planned jobs and plan it afresh from `now`, if active."""
        self._plan.changed(schedule.id)
        self._roster[schedule.id] = schedule
        if not schedule.paused:
            self._plan.schedule(schedule, now)

    async def post_now(self, schedule: Schedule) -> NowOutcome:
        """`daily now`: post the schedule's next question at once (its answer follows as set)."""
        platform = schedule.channel.platform
        if platform not in self._platforms:
            return NowOutcome.NOT_ATTACHED
        await self.attached(platform)  # loaded first, so its recovery cannot resend this post
        now = self._clock.now()
        reads = TickReads(self._ledger, self._questions)  # outside a tick: read afresh
        self._roster[schedule.id] = schedule
        post = await self._choose(schedule, now, f"now-{now.isoformat(timespec='seconds')}",
                                  reads)  # fmt: skip
        if post is None:
            return NowOutcome.PAUSED
        if not await self._ledger.claim(post, self._leases.lease()):
            return NowOutcome.DUPLICATE
        sent = await self._poster.send(post, reads)
        await self._poster.flush()
        return NowOutcome.POSTED if sent else self._why_not(schedule.id, platform)

    def _why_not(self, schedule_id: int, platform: str) -> NowOutcome:
        if platform not in self._platforms:
            return NowOutcome.NOT_ATTACHED
        current = self._roster.get(schedule_id)
        return NowOutcome.PAUSED if current is not None and current.paused else NowOutcome.RETRYING
