"""The daily loop: post each channel's question at its local time and the answer after it.

Design
- Work is a heap of jobs keyed by due instant: each active schedule's next question, each
  posted question's answer, each retry. The loop sleeps until the earliest one (or until a
  schedule changes) and never scans every schedule every minute.
- Exactly once: the questions due in a tick are first *claimed*, their ledger rows
  (schedule, slot, part) inserted in one transaction; then they are sent; then the platform's
  message references are recorded, again in one write. A claimed slot is never claimed
  again, so a restart cannot post it twice.
- The one window left: the platform accepted a message but the process died before its
  reference was stored (for the posts of one tick, well under a second). On restart such a
  row is still `pending`; if its slot is within the grace period it is sent again with the
  same nonce. Discord deduplicates by nonce, so there it is still one message; on
  platforms without idempotency (Slack, the console) the channel may see the question twice.
  A pending row older than the grace period is given up and logged instead, so a long
  outage never floods a channel.
- Platforms come and go (`bot/platforms.py`): nothing is planned for a platform until it
  attaches. Its first attach in a run loads its schedules and recovers its unfinished posts
  (below); a post whose platform is away when it is due is parked and delivered when the
  platform attaches again (within the grace period for a question). So the order in which
  Discord, Slack and the console connect, and reconnects, change nothing.
- Missed slots: when a platform attaches, a question whose slot passed less than `grace` ago
  is posted late; older slots are skipped and logged; answers of posted questions are always
  delivered, late if need be.
- Failures: a refused post is retried with growing delays; a permanent refusal or too many
  failures pauses the schedule and records why, which `schedule show` reports.
- Time comes from the injected Clock; tests move a fake clock and call `tick()`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import hashlib
import heapq
import itertools
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bot.commands.views import answer_reply, question_reply
from bot.errors import DeliveryError
from bot.platforms import Platforms
from bot.ports import Clock
from bot.schedule.model import Schedule
from bot.schedule.picker import choose
from bot.store.questions import QuestionStore
from bot.store.schedules import Part, Post, ScheduleStore
from bot.store.submissions import SubmissionStore
from bot.types import Kind, MessageRef, Question, Reply

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SchedulerConfig:
    grace: timedelta = timedelta(hours=1)
    retry_delays: tuple[timedelta, ...] = (
        timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10), timedelta(minutes=30),
    )  # fmt: skip
    concurrency: int = 64  # posts in flight at once when many channels share a minute
    skipped_log_limit: int = 7


class NowOutcome(enum.Enum):
    """What `daily now` did, so the command can say it in a sentence."""

    POSTED = "posted"
    NOT_ATTACHED = "not_attached"  # the channel's platform is not connected
    DUPLICATE = "duplicate"  # a post for this very second was claimed already
    PAUSED = "paused"  # nothing to post, or refused for good: the schedule says why
    RETRYING = "retrying"  # refused for now; retried later like any post


@dataclass(frozen=True, slots=True)
class _QuestionJob:
    schedule_id: int
    version: int  # the schedule's version when planned; a changed schedule drops the job
    due: datetime


@dataclass(frozen=True, slots=True)
class _AnswerJob:
    schedule_id: int
    slot: str


@dataclass(frozen=True, slots=True)
class _RetryJob:
    post: Post


_Job = _QuestionJob | _AnswerJob | _RetryJob


@dataclass(order=True)
class _Entry:
    due: datetime
    seq: int
    job: _Job = field(compare=False)


class Scheduler:
    def __init__(
        self,
        ledger: ScheduleStore,
        questions: QuestionStore,
        clock: Clock,
        platforms: Platforms,
        config: SchedulerConfig = SchedulerConfig(),
        submissions: SubmissionStore | None = None,
    ) -> None:
        self._ledger, self._questions, self._clock = ledger, questions, clock
        self._platforms, self._config = platforms, config
        self._submissions = submissions  # for "solved so far" under a coding answer
        self._heap: list[_Entry] = []
        self._seq = itertools.count()
        # Schedules on connected platforms, kept current by `schedule_changed` and `_pause`,
        # so a post does not read its schedule back from the database.
        self._schedules: dict[int, Schedule] = {}
        self._pools: dict[tuple[Kind, str | None], list[str]] = {}
        self._texts: dict[str, Question] = {}  # like the pools: for one tick
        self._cycles: dict[tuple[int, Kind], tuple[int, set[str]]] = {}
        self._sent: list[tuple[Post, str, datetime]] = []
        self._versions: dict[int, int] = {}
        self._changed = asyncio.Event()
        self._limit = asyncio.Semaphore(config.concurrency)
        self._loaded: set[str] = set()  # platforms whose schedules this run has planned
        self._parked: dict[str, list[Post]] = {}  # claimed posts waiting for their platform
        self._loading = asyncio.Lock()
        self._stopping = False
        platforms.subscribe(self)

    # --- lifecycle ----------------------------------------------------------------------

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
            for post in self._parked.pop(name, []):
                await self._recover(post, now)
        self._changed.set()

    def detached(self, name: str) -> None:
        """Nothing to undo: the plan stays, and posts due meanwhile park in `_send`."""
        log.info("scheduler: %s detached; its posts wait for it", name)

    async def _load(self, platform: str) -> None:
        """Plan `platform`'s schedules; recover its pending posts and unanswered questions."""
        now = self._clock.now()
        schedules = await self._ledger.on_platforms(frozenset({platform}))
        self._schedules.update({s.id: s for s in schedules})
        last_dues = await self._ledger.last_question_dues()
        for schedule in schedules:
            if not schedule.paused:
                after = self._resume_after(schedule, last_dues.get(schedule.id), now)
                self._plan_question(schedule, after)
        ids = {s.id for s in schedules}
        for post in await self._ledger.pending():
            if post.schedule_id in ids:
                await self._recover(post, now)
        for post in await self._ledger.unanswered():
            if post.schedule_id in ids:
                self._plan_answer(post)
        log.info("scheduler: %d schedule(s) on %s loaded", len(schedules), platform)

    async def run(self) -> None:
        """Catch up, then post what is due and sleep until the next due time, until `stop`
        (or cancelled)."""
        await self.start()
        while not self._stopping:
            await self.tick()
            await self._sleep()

    def stop(self) -> None:
        """Ask `run` to return once the tick in progress is done, its sends recorded: a
        stopped bot then leaves no sent post looking unsent, to be sent again at start."""
        self._stopping = True
        self._changed.set()

    async def tick(self) -> None:
        """Do every job that is due now, up to `concurrency` at a time."""
        now = self._clock.now()
        self._pools.clear()  # when many channels are due at once, they share these reads
        self._texts.clear()
        due: list[_Job] = []
        while self._heap and self._heap[0].due <= now:
            due.append(heapq.heappop(self._heap).job)
        if not due:
            return
        # Questions first, as one batch: choose each, claim them all in one transaction,
        # then send them concurrently. A thousand channels due in the same minute cost a
        # handful of database round trips, not thousands.
        asking = [job for job in due if isinstance(job, _QuestionJob)]
        self._cycles = await self._prefetch_cycles({job.schedule_id for job in asking})
        posts = [post for job in asking if (post := await self._question_post(job))]
        claimed = await self._ledger.claim_all(posts) if posts else []
        others = [job for job in due if not isinstance(job, _QuestionJob)]
        await asyncio.gather(
            *(self._guarded(_RetryJob(post)) for post in claimed),
            *(self._guarded(job) for job in others),
        )
        await self._flush_sent()

    def next_due(self) -> datetime | None:
        return self._heap[0].due if self._heap else None

    async def schedule_changed(self, schedule_id: int) -> None:
        """Re-plan one schedule after a command changed it, and wake the loop."""
        self._versions[schedule_id] = self._versions.get(schedule_id, 0) + 1
        schedule = await self._ledger.get(schedule_id)
        if schedule is None or schedule.channel.platform not in self._loaded:
            self._schedules.pop(schedule_id, None)  # planned, if at all, when it attaches
        else:
            self._schedules[schedule_id] = schedule
            if not schedule.paused:
                self._plan_question(schedule, self._clock.now())
        self._changed.set()

    async def post_now(self, schedule: Schedule) -> NowOutcome:
        """`daily now`: post the schedule's next question at once (its answer follows as set)."""
        platform = schedule.channel.platform
        if platform not in self._platforms:
            return NowOutcome.NOT_ATTACHED
        await self.attached(platform)  # loaded first, so its recovery cannot resend this post
        now = self._clock.now()
        self._cycles.clear()  # outside a tick: read the cycle fresh
        self._schedules[schedule.id] = schedule
        slot = f"now-{now.isoformat(timespec='seconds')}"
        post = await self._choose(schedule, now, slot)
        if post is None:
            return NowOutcome.PAUSED
        if not await self._ledger.claim(post):
            return NowOutcome.DUPLICATE
        sent = await self._send(post)
        await self._flush_sent()
        return NowOutcome.POSTED if sent else self._why_not(schedule.id, platform)

    def _why_not(self, schedule_id: int, platform: str) -> NowOutcome:
        if platform not in self._platforms:
            return NowOutcome.NOT_ATTACHED
        current = self._schedules.get(schedule_id)
        return NowOutcome.PAUSED if current is not None and current.paused else NowOutcome.RETRYING

    # --- planning -------------------------------------------------------------------------

    def _push(self, due: datetime, job: _Job) -> None:
        heapq.heappush(self._heap, _Entry(due, next(self._seq), job))
        self._changed.set()

    def _plan_question(self, schedule: Schedule, after: datetime) -> None:
        instants = schedule.slot.next_after(after)
        if instants:
            version = self._versions.get(schedule.id, 0)
            self._push(instants[0], _QuestionJob(schedule.id, version, instants[0]))

    def _plan_answer(self, question: Post) -> None:
        schedule = self._schedules.get(question.schedule_id)
        if schedule is not None:
            due = schedule.answer.due(question.due_at, schedule.zone)
            self._push(due, _AnswerJob(schedule.id, question.slot))

    def _resume_after(self, schedule: Schedule, last: datetime | None, now: datetime) -> datetime:
        """Where the schedule picks up: after its last post, but never before the grace window."""
        floor = now - self._config.grace
        if last is not None and last < floor:
            self._log_skipped(schedule, last, floor)
        return max(last, floor) if last is not None else floor

    def _log_skipped(self, schedule: Schedule, last: datetime, floor: datetime) -> None:
        missed = [t for t in schedule.slot.next_after(last, self._config.skipped_log_limit)
                  if t <= floor]  # fmt: skip
        if missed:
            shown = ", ".join(t.astimezone(schedule.zone).isoformat() for t in missed)
            log.warning("schedule %d: skipped slot(s) missed by more than the grace period: %s",
                        schedule.id, shown)  # fmt: skip

    async def _recover(self, post: Post, now: datetime) -> None:
        """A post claimed by an earlier run and never confirmed (see the module docstring)."""
        if post.part == "question" and post.due_at < now - self._config.grace:
            await self._ledger.mark_attempt(post, "not confirmed before a restart", final=True)
            log.warning("schedule %d slot %s: unconfirmed question given up after restart",
                        post.schedule_id, post.slot)  # fmt: skip
            return
        self._push(now, _RetryJob(post))

    # --- doing ------------------------------------------------------------------------------

    async def _guarded(self, job: _Job) -> None:
        async with self._limit:
            try:
                await self._do(job)
            except Exception:
                log.exception("scheduled job %r failed", job)

    async def _do(self, job: _Job) -> None:
        if isinstance(job, _AnswerJob):
            await self._answer_job(job)
        elif isinstance(job, _RetryJob):
            await self._send(job.post)

    async def _question_post(self, job: _QuestionJob) -> Post | None:
        """The post a question job makes (not yet claimed), and the schedule's next job."""
        if job.version != self._versions.get(job.schedule_id, 0):
            return None  # the schedule changed since this job was planned
        schedule = self._schedules.get(job.schedule_id)
        if schedule is None or schedule.paused:
            return None
        self._plan_question(schedule, job.due)
        return await self._choose(schedule, job.due, schedule.local_date(job.due))

    async def _choose(self, schedule: Schedule, due: datetime, slot: str) -> Post | None:
        choice = await choose(self._asked, self._pool, schedule, schedule.kind_on(due), slot)
        if choice is None:
            await self._pause(schedule.id, "no question matches this schedule's topic filter")
            return None
        question_id, kind, cycle = choice
        return Post(schedule.id, slot, "question", question_id, kind, cycle, due, "pending", 0,
                    _nonce(schedule.id, slot, "question"), None)  # fmt: skip

    async def _answer_job(self, job: _AnswerJob) -> None:
        question = await self._ledger.question_post(job.schedule_id, job.slot)
        if question is None or question.state != "sent":
            return
        post = Post(job.schedule_id, job.slot, "answer", question.question_id, question.kind,
                    question.cycle, self._clock.now(), "pending", 0,
                    _nonce(job.schedule_id, job.slot, "answer"), None)  # fmt: skip
        if await self._ledger.claim(post):
            await self._send(post)

    async def _send(self, post: Post) -> bool:
        """Deliver a claimed post; record success, or plan a retry, or give up and pause."""
        schedule = self._schedules.get(post.schedule_id)
        if schedule is None:
            return False  # removed since it was claimed: stays pending, harmless
        adapter = self._platforms.get(schedule.channel.platform)
        if adapter is None:  # its platform went away: sent when it attaches again
            self._parked.setdefault(schedule.channel.platform, []).append(post)
            return False
        try:
            reply, thread_of = await self._render(schedule, post)
            ref = await adapter.send(schedule.channel, reply, thread_of=thread_of,
                                     nonce=post.nonce)  # fmt: skip
        except DeliveryError as exc:
            await self._failed(schedule, post, str(exc), permanent=exc.permanent)
            return False
        except Exception as exc:  # an adapter bug is not the channel's fault: retry it
            log.exception("schedule %d: posting raised", schedule.id)
            await self._failed(schedule, post, f"{type(exc).__name__}: {exc}", permanent=False)
            return False
        self._sent.append((post, ref.message_id, self._clock.now()))
        if post.part == "question":
            self._plan_answer(post)
        return True

    async def _render(self, schedule: Schedule, post: Post) -> tuple[Reply, MessageRef | None]:
        question = self._texts.get(post.question_id)
        if question is None:
            question = await self._questions.get(post.question_id, retired=True)
        if question is None:
            raise DeliveryError(f"question {post.question_id} is gone", permanent=True)
        self._texts[question.id] = question
        if post.part == "question":
            return question_reply(question, schedule.locale), None
        asked = await self._ledger.question_post(post.schedule_id, post.slot)
        thread = (
            MessageRef(schedule.channel, asked.message_id) if asked and asked.message_id else None
        )
        solvers = None
        if question.kind is Kind.CODING and self._submissions is not None:
            solvers = await self._submissions.solvers(question.id)
        return answer_reply(question, schedule.locale, solvers), thread

    async def _failed(self, schedule: Schedule, post: Post, error: str, *, permanent: bool) -> None:
        attempts = post.attempts + 1
        final = permanent or attempts > len(self._config.retry_delays)
        await self._ledger.mark_attempt(post, error, final=final)
        if final:
            reason = f"posting failed {attempts} time(s): {error}"
            log.error("schedule %d paused: %s", schedule.id, reason)
            await self._pause(schedule.id, reason)
            return
        retry = dataclasses.replace(post, attempts=attempts)
        self._push(self._clock.now() + self._config.retry_delays[attempts - 1], _RetryJob(retry))

    async def _pause(self, schedule_id: int, reason: str) -> None:
        await self._ledger.set_paused(schedule_id, True, reason)
        self._versions[schedule_id] = self._versions.get(schedule_id, 0) + 1
        if schedule_id in self._schedules:
            paused = dataclasses.replace(self._schedules[schedule_id], paused=True,
                                         pause_reason=reason)  # fmt: skip
            self._schedules[schedule_id] = paused

    async def _prefetch_cycles(
        self, schedule_ids: set[int]
    ) -> dict[tuple[int, Kind], tuple[int, set[str]]]:
        if not schedule_ids:
            return {}
        found = await self._ledger.current_cycles(schedule_ids)
        empty = {(sid, kind): (0, set[str]()) for sid in schedule_ids for kind in Kind}
        return empty | found

    async def _flush_sent(self) -> None:
        """Record the message references of everything sent since the last flush, at once.

        Until this runs the posts are still `pending`: a crash here is the window described
        in the module docstring, for the posts of one tick.
        """
        if self._sent:
            sent, self._sent = self._sent, []
            await self._ledger.mark_all_sent(sent)

    async def _asked(self, schedule_id: int, kind: Kind) -> tuple[int, set[str]]:
        """The schedule's current cycle and what it asked in it: prefetched for a whole tick."""
        key = (schedule_id, kind)
        if key not in self._cycles:
            found = await self._ledger.current_cycles([schedule_id])
            self._cycles[key] = found.get(key, (0, set()))
        return self._cycles[key]

    async def _pool(self, kind: Kind, topic: str | None) -> list[str]:
        """The questions a schedule may draw from; one query per filter per tick."""
        key = (kind, topic)
        if key not in self._pools:
            self._pools[key] = await self._questions.ids_matching(kind=kind, topic=topic)
        return self._pools[key]

    # --- sleeping -------------------------------------------------------------------------------

    async def _sleep(self) -> None:
        """Until the earliest job is due or a schedule changes; both tasks are kept and reaped."""
        if self._stopping:
            return
        self._changed.clear()
        waiters: set[asyncio.Task[object]] = {
            asyncio.create_task(self._changed.wait(), name="schedule-changed")
        }
        if self._heap:
            until = self._heap[0].due
            waiters.add(asyncio.create_task(self._clock.sleep_until(until), name="schedule-sleep"))
        try:
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in waiters:
                task.cancel()
            await asyncio.gather(*waiters, return_exceptions=True)


def _nonce(schedule_id: int, slot: str, part: Part) -> str:
    """Stable per post and at most 25 characters (Discord's limit for a message nonce)."""
    return hashlib.sha256(f"{schedule_id}/{slot}/{part}".encode()).hexdigest()[:25]
