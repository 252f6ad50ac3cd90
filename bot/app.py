"""Assembling the running bot from settings: database, content, core, schedule.

`open_app` is the one place resources are entered, in order, on one AsyncExitStack, and left
in reverse order however the bot stops: the database, the content, the grading sandbox (its
zygote process and warm workers), then the core. It is how `studybot run` and `console` build
the bot and how the tests build it too; tests pass their own clock at this boundary, and
attach fake platforms to `App.platforms` as the real adapters do.

Chat platforms are not known here: each attaches its adapter to `App.platforms` once it is
connected (see bot/platforms.py), and the scheduler, subscribed to that registry, picks up
its schedules then, whether its loop (`running_scheduler`) started before or after. The
morning digest of due reviews (`running_digest`) looks at whichever platforms are attached
each time it wakes. Each platform paces its requests with a pacer from `App.pacers`
(bot/pacing.py): on PostgreSQL its turns come from a budget every process shares.
Without a clock from the caller, the bot runs on the system clock, or on the scaled test
clock that `STUDYBOT_TEST_CLOCK` asks for (tests of `studybot run` as a process).

With PostgreSQL, grading is a queue (bot/grading/queue.py): a bot process builds its grading
with `open_queued_grading` (admission over the database, no sandbox: it defers jobs and
waits for verdicts), and `studybot grader` processes are built by `open_grader` (the sandbox,
the problems, the procrastinate worker and its stalled-job loop).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import procrastinate

from bot.answers.service import Answers
from bot.charts.painter import Painter
from bot.charts.weekly import WeekCharts
from bot.clock import ScaledClock, SystemClock
from bot.commands.context import Context
from bot.community.imports import Imports
from bot.community.moderation import Moderation
from bot.content.loader import load_if_changed
from bot.core import Studybot
from bot.errors import ConfigError, ContentError, GradingUnavailable, IsolationRefused
from bot.grades import RawRun
from bot.grading import sandboxes
from bot.grading.admission import Admission
from bot.grading.case_cache import CaseCache
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import Problem, load_problems
from bot.grading.queue import (
    PATIENCE,
    QUEUE,
    GradingQueue,
    Verdicts,
    announce,
    job_app,
    open_job_queue,
)
from bot.grading.service import Grading, OnAccepted
from bot.grading.shared_admission import SharedAdmission, SharedAdmissionConfig
from bot.grading.timing import TIMING_FILE
from bot.grading.worker import GradingWorker, StalledJobs
from bot.learning.ledger import Ledger
from bot.learning.scores import Scores
from bot.mistakes.service import Mistakes
from bot.pacing import Pacers
from bot.platforms import Platforms
from bot.ports import Clock, Metrics, NoMetrics
from bot.review.digest import Digest
from bot.review.reviews import Reviews
from bot.scheduler import Scheduler, SchedulerConfig
from bot.scheduler.summary import Summaries
from bot.scheduler.tally import Tallies
from bot.settings import Settings
from bot.store.activity import ActivityStore
from bot.store.answers import AnswerStore
from bot.store.boards import BoardStore
from bot.store.cards import CardStore
from bot.store.community import CommunityStore
from bot.store.db import Database
from bot.store.members import MemberData
from bot.store.mistakes import MistakeStore
from bot.store.open import open_store
from bot.store.postgres.budget import SharedBudget
from bot.store.postgres.database import Pool, open_postgres
from bot.store.postgres.db import PostgresDatabase
from bot.store.preferences import Preferences
from bot.store.progress import ProgressStore
from bot.store.questions import QuestionStore
from bot.store.quizzes import QuizStore
from bot.store.schedules import ScheduleStore
from bot.store.scores import ScoreStore
from bot.store.seen import SeenStore
from bot.store.submissions import SubmissionStore
from bot.store.summaries import SummaryStore

log = logging.getLogger(__name__)

WARM = 4  # workers a bot process keeps ready: as many gradings as can start without waiting


@dataclass(frozen=True, slots=True)
class App:
    core: Studybot
    store: QuestionStore
    scheduler: Scheduler
    db: Database
    grading: Grading | None  # None only when opened with grading=False (tests)
    platforms: Platforms
    quizzes: QuizStore
    tallies: Tallies
    ledger: Ledger
    digest: Digest
    scores: Scores
    painter: Painter  # draws the pictures replies carry, and keeps them for the day
    pacers: Pacers  # each platform's turns under its rate limit, shared on PostgreSQL


@asynccontextmanager
async def open_app(
    settings: Settings,
    *,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    grading: bool = True,
    grade_here: str | None = None,
    metrics: Metrics | None = None,
) -> AsyncIterator[App]:
    """The bot, ready for platforms to attach. `grading=False` starts no sandbox: for tests
    that grade nothing (a sandbox takes about half a second to start).

    `grade_here`, a platform's name: its members' solutions are graded in this process on
    every engine. That is the console's: one member at a terminal should not need a grader
    process to be running, so on PostgreSQL too its solutions skip the queue, and its start
    grades again only its own unfinished ones (chat platforms' queued ones are the graders').

    `metrics` hears what each part counts (interactions, posts, verdicts, the sandbox,
    reconnects); without it nothing is counted."""
    # The platforms' limits are in real seconds: a test clock scaled by the settings speeds
    # schedules up, never the pacing; a clock a test passes in moves both.
    pace_clock: Clock = clock or SystemClock()
    clock, metrics = clock or clock_for(settings), metrics or NoMetrics()
    async with AsyncExitStack() as stack:
        database = await stack.enter_async_context(open_store(settings))
        await refresh_content(database, settings)
        store = QuestionStore(database)
        schedules, submissions = ScheduleStore(database), SubmissionStore(database)
        quizzes, prefs = QuizStore(database), Preferences(database)
        scores = scoring(database, prefs, schedules)
        ledger = scores.ledger
        platforms = Platforms(metrics=metrics)
        config = SchedulerConfig(grace=settings.grace)
        painter = Painter()
        charts = WeekCharts(ledger.activity, painter)
        summaries = Summaries(SummaryStore(database), scores.boards, platforms, clock, charts)
        answers = Answers(AnswerStore(database), clock, platforms)
        scheduler = Scheduler(schedules, store, clock, platforms, config, submissions, quizzes,
                              scores, summaries, metrics=metrics, answers=answers)  # fmt: skip
        tallies = Tallies(schedules, store, quizzes, platforms, clock)
        stack.push_async_callback(tallies.close)
        graded = None
        if grading:
            graded = await stack.enter_async_context(
                _grading(database, submissions, settings, clock, scores.solved, grade_here, metrics)
            )
        rng, cards = rng or random.Random(), CardStore(database)
        community = CommunityStore(database)
        reviews = Reviews(cards, prefs, clock, rng)
        context = Context(store, clock, rng, schedules, scheduler, quizzes, MemberData(database),
                          prefs, ledger, reviews, SeenStore(database),
                          ProgressStore(database, submissions), scores, tallies,
                          graded, painter, Imports(community, clock),
                          Moderation(community, store, clock),
                          Mistakes(MistakeStore(database), clock, platforms),
                          answers)  # fmt: skip
        digest = Digest(prefs, cards, platforms, clock)
        core = Studybot(context, metrics)
        yield App(core, store, scheduler, database, graded, platforms, quizzes, tallies, ledger,
                  digest, scores, painter, pacers(database, pace_clock, metrics))  # fmt: skip


def pacers(database: Database, clock: Clock, metrics: Metrics) -> Pacers:
    """Rate budgets in the database when several processes may share it (PostgreSQL, one
    row per platform), else in this process (SQLite: one process runs)."""
    if isinstance(database, PostgresDatabase):
        return Pacers(clock, metrics, functools.partial(SharedBudget, database, clock=clock))
    return Pacers(clock, metrics)


def scoring(database: Database, prefs: Preferences, schedules: ScheduleStore) -> Scores:
    """Points, streaks and boards over `database`: for the bot, and for graders (which score
    the solutions they accept)."""
    ledger = Ledger(ActivityStore(database), prefs, schedules)
    return Scores(ledger, ScoreStore(database), BoardStore(database))


def clock_for(settings: Settings) -> Clock:
    """The system clock, unless a test asked for a shifted, faster one."""
    if (override := settings.test_clock) is None:
        return SystemClock()
    log.warning("test clock: starting at %s, %gx", override.start.isoformat(), override.speed)
    return ScaledClock(override.start, override.speed)


def _grading(
    database: Database,
    submissions: SubmissionStore,
    settings: Settings,
    clock: Clock,
    on_accepted: OnAccepted,
    here: str | None,
    metrics: Metrics,
) -> AbstractAsyncContextManager[Grading]:
    """In process on SQLite (and for `here`, the console, everywhere); through the queue and
    `studybot grader` on PostgreSQL."""
    if here is None and isinstance(database, PostgresDatabase) and settings.postgres is not None:
        return open_queued_grading(database.pool, settings.postgres.reveal(), settings, clock)
    return open_grading(submissions, settings, clock, on_accepted, recover=here, metrics=metrics)


@asynccontextmanager
async def open_grading(
    submissions: SubmissionStore,
    settings: Settings,
    clock: Clock,
    on_accepted: OnAccepted,
    recover: str | None = None,
    metrics: Metrics | None = None,
) -> AsyncIterator[Grading]:
    """Grading, at once; its start in the background: the zygote starts (its layers logged)
    while the problems' expected results are computed in a thread, then what the last run
    left unfinished is graded again. Nothing else waits for any of it: the bot answers
    lookups at once, and a submission in the first second waits for the start. With strict
    isolation and a layer missing, the start logs which and the sandbox refuses every job:
    members are told that grading is unavailable. `recover`: only that platform's unfinished
    submissions are graded again."""
    sandbox = sandboxes.sandbox_for(settings, warm=WARM, metrics=metrics)  # strict: refuses jobs
    grader = Grader(sandbox, {}, timing_cache=settings.cache_dir / TIMING_FILE, metrics=metrics)
    starting = asyncio.create_task(_start(sandbox, grader, settings), name="grading-start")
    starting.add_done_callback(_report_crash)
    grading = Grading(grader, Admission(clock), submissions, clock, starting, on_accepted)
    recovery = grading.start_recovery(recover)
    recovery.add_done_callback(_report_crash)
    try:
        yield grading
    finally:
        recovery.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await recovery
        with contextlib.suppress(Exception):  # let a start finish: its zygote is then ours
            await asyncio.shield(starting)
        grader.close()
        await sandbox.close()


@asynccontextmanager
async def open_queued_grading(
    pool: Pool,
    dsn: str,
    settings: Settings,
    clock: Clock,
    limits: SharedAdmissionConfig | None = None,
    patience: float = PATIENCE,
) -> AsyncIterator[Grading]:
    """A bot process's grading when graders grade (PostgreSQL): admission across processes,
    submissions deferred as jobs, verdicts awaited. Scoring stays with the graders (see
    `open_grader`), so a solution scores even if this process dies while it waits; the bot
    process knows the problems (for `/submit`'s checks) and runs no sandbox. `open_app`
    enters this in place of `open_grading` on PostgreSQL, on the pool it opened for the
    stores."""
    database = PostgresDatabase(pool)
    submissions = SubmissionStore(database)
    verdicts = Verdicts(dsn, submissions)
    async with AsyncExitStack() as stack:
        app = await stack.enter_async_context(open_job_queue(job_app(dsn), pool))
        verdicts.start()
        stack.push_async_callback(verdicts.close)
        grader = Grader(_Elsewhere(), await asyncio.to_thread(_problems, settings))
        stack.callback(grader.close)
        admission = SharedAdmission(database, submissions, clock, limits or SharedAdmissionConfig())
        remote = GradingQueue(app, verdicts, patience)
        yield Grading(grader, admission, submissions, clock, remote=remote)


class _Elsewhere:
    """A bot process's executor when graders grade: it never runs code itself."""

    async def run(self, job: dict[str, Any], deadline: float) -> RawRun:
        raise GradingUnavailable("this process queues gradings; `studybot grader` runs them")


@dataclass(frozen=True, slots=True)
class GraderOptions:
    concurrency: int = 1  # gradings at once in this process (one core each)
    heartbeat: float = 5.0  # seconds between this worker's heartbeats
    stalled_after: float = 20.0  # a worker silent this long has died: its jobs go back
    sweep_every: float = 5.0  # seconds between looks for stalled jobs


@dataclass(frozen=True, slots=True)
class GraderProcess:
    """`studybot grader`, built: `run()` takes jobs until cancelled (or SIGTERM/SIGINT)."""

    jobs: procrastinate.App
    worker: GradingWorker
    stalled: StalledJobs
    options: GraderOptions
    db: Database  # for its readiness: the database and the queue reachable

    async def run(self, *, install_signal_handlers: bool = True) -> None:
        sweeping = asyncio.create_task(self.stalled.run(), name="stalled-jobs")
        sweeping.add_done_callback(_report_crash)
        try:
            await self.jobs.run_worker_async(
                queues=[QUEUE], concurrency=self.options.concurrency,
                update_heartbeat_interval=self.options.heartbeat,
                stalled_worker_timeout=self.options.stalled_after,
                install_signal_handlers=install_signal_handlers,
            )  # fmt: skip
        finally:
            sweeping.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sweeping


@asynccontextmanager
async def open_grader(
    settings: Settings,
    *,
    clock: Clock | None = None,
    options: GraderOptions = GraderOptions(),
    metrics: Metrics | None = None,
) -> AsyncIterator[GraderProcess]:
    """A grader process: the database, the sandbox (started before the first job is
    taken), the problems, the job queue with this process's task, the stalled-job loop.
    Strict isolation with a layer missing is `IsolationRefused` before any job is taken: the
    jobs wait for a grader that can grade them.

    Scoring: an accepted solution is scored by the grader that records it (`on_accepted`,
    retried with the job, idempotent by the ledger's dedupe keys), so it scores even if the
    bot process that took it died while it waited."""
    if settings.postgres is None:
        raise ConfigError("studybot grader needs STUDYBOT_DATABASE=postgresql://… "
                          "(graders take their jobs from PostgreSQL)")  # fmt: skip
    clock = clock or clock_for(settings)
    async with AsyncExitStack() as stack:
        dsn = settings.postgres.reveal()
        pool = await stack.enter_async_context(open_postgres(dsn, max_size=options.concurrency + 4))
        database = PostgresDatabase(pool)
        sandbox = sandboxes.sandbox_for(settings, warm=options.concurrency + 1, metrics=metrics)
        stack.push_async_callback(sandbox.close)
        loading = asyncio.create_task(asyncio.to_thread(_problems, settings), name="problems")
        try:  # strict isolation with a layer missing: no grader rather than one failing jobs
            layers = await sandboxes.start(sandbox, settings)
        finally:
            problems = await loading
        log.info("grading sandbox ready; isolation %s", layers.describe())
        grader = Grader(sandbox, problems, timing_cache=settings.cache_dir / TIMING_FILE,
                        metrics=metrics)  # fmt: skip
        stack.callback(grader.close)
        scores = scoring(database, Preferences(database), ScheduleStore(database))
        worker = GradingWorker(grader, SubmissionStore(database), clock,
                               functools.partial(announce, pool), scores.solved,
                               metrics)  # fmt: skip
        app = job_app(dsn, options.concurrency + 3)
        worker.register(app)
        await stack.enter_async_context(open_job_queue(app, pool))
        stalled = StalledJobs(app, database, clock, stalled_after=options.stalled_after,
                              every=options.sweep_every)  # fmt: skip
        yield GraderProcess(app, worker, stalled, options, database)


async def _start(sandbox: Sandbox, grader: Grader, settings: Settings) -> None:
    loading = asyncio.create_task(asyncio.to_thread(_problems, settings), name="problems")
    try:
        layers = await sandbox.start()
    finally:
        grader.problems.update(await loading)
    if (refused := sandboxes.refusal(settings, layers)) is not None:
        # The pool has logged which layer is missing. Failing the start makes every
        # submission fail before it is stored: none is kept to be graded, or scored, by a
        # later start the member was never told of.
        raise refused
    log.info("grading sandbox ready; isolation %s", layers.describe())


def _problems(settings: Settings) -> dict[str, Problem]:
    try:
        return load_problems(settings.content_dir, CaseCache(settings.cache_dir / "cases"))
    except ContentError as exc:
        log.error("coding problems not loaded, grading is off:\n%s", exc)
        return {}


SCHEDULER_STOP_TIMEOUT = 5.0  # seconds a tick in progress may take to finish at shutdown


class Loop(Protocol):
    """A background loop of the bot: the scheduler, the review digest."""

    async def run(self) -> None: ...

    def stop(self) -> None: ...


@asynccontextmanager
async def running(loop: Loop, name: str, grace: float = 0.0) -> AsyncIterator[asyncio.Task[None]]:
    """Run `loop` as a named task for the duration of the block, then stop it: the pass in
    progress may finish (and record what it did) within `grace` seconds."""
    task = asyncio.create_task(loop.run(), name=name)
    task.add_done_callback(_report_crash)
    try:
        yield task
    finally:
        loop.stop()
        if grace:
            await asyncio.wait({task}, timeout=grace)
        task.cancel()
        # A crash was already logged by the done-callback; stopping must not raise it again.
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


def running_scheduler(app: App) -> AbstractAsyncContextManager[asyncio.Task[None]]:
    """The daily loop: a tick in progress may finish at shutdown, within a timeout."""
    return running(app.scheduler, "scheduler", SCHEDULER_STOP_TIMEOUT)


def running_digest(app: App) -> AbstractAsyncContextManager[asyncio.Task[None]]:
    """The morning digest of due reviews."""
    return running(app.digest, "review-digest")


def _report_crash(task: asyncio.Task[Any]) -> None:
    if task.cancelled() or (exc := task.exception()) is None:
        return
    if isinstance(exc, IsolationRefused):  # a state the start logged, not a crash
        log.warning("%s: not run, grading is refused by strict isolation", task.get_name())
        return
    log.error("%s stopped", task.get_name(), exc_info=exc)


async def refresh_content(db: Database, settings: Settings) -> None:
    """Load content that changed since the last load; a broken bank keeps the last good one."""
    try:
        report = await load_if_changed(db, settings.content_dir)
    except ContentError as exc:
        log.error("content not loaded, serving the last good bank:\n%s", exc)
        return
    if report is not None:
        log.info("%s", report.summary())
