"""The grading queue on PostgreSQL: submissions as procrastinate jobs, verdicts as NOTIFYs.

With PostgreSQL configured, a bot process does not grade. `/submit` stores the submission
(`queued`, admitted by `SharedAdmission`), defers one job naming it (`TASK` on queue
`QUEUE`, `queueing_lock` its id, so it is never queued twice), and waits for its verdict;
`studybot grader` processes, on any machines, take the jobs (bot/grading/worker.py), grade
in their own sandbox, record the whole Grade in the submission's row and
`NOTIFY studybot_verdicts, '<id>'`. The waiting process LISTENs on one connection of its
own and reads the row when its id is announced; a slow poll of the row (`POLL` seconds)
stands in for a notification missed while that connection was being re-opened. The row is
the truth, the notification only a wake-up.

procrastinate's schema (its tables, functions and triggers) lives in the same database. It
is applied by the first process to open the queue, under the advisory lock our own
migrations take (`bot.store.postgres.database`), so processes starting together apply it
once: the others wait for the lock, then find `procrastinate_jobs` there. (An upgrade of
procrastinate that brings schema migrations would apply them the same way, as a step.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import procrastinate
import psycopg
from procrastinate.schema import SchemaManager

from bot.grading.service import Queued
from bot.store.postgres.database import MIGRATION_LOCK, Pool
from bot.store.submissions import Outcome, SubmissionStore

log = logging.getLogger(__name__)

TASK = "grade_submission"
QUEUE = "grading"
CHANNEL = "studybot_verdicts"
POLL = 2.0  # seconds between reads of a waited-for row, should a notification be missed
RECONNECT = 1.0  # seconds before the listening connection is opened again after a loss


def job_app(dsn: str, connections: int = 4) -> procrastinate.App:
    """A procrastinate app on a psycopg connector with a small pool of its own: its
    connections are configured its way (not in autocommit; its LISTEN connection sets that
    itself, and refuses a pool that already does, as ours does)."""
    connector = procrastinate.PsycopgConnector(conninfo=dsn, min_size=1, max_size=connections)
    return procrastinate.App(connector=connector)


@asynccontextmanager
async def open_job_queue(app: procrastinate.App, pool: Pool) -> AsyncIterator[procrastinate.App]:
    """`app`, open, with procrastinate's schema in place (applied through `pool`, ours)."""
    await apply_schema(pool)
    async with app.open_async():
        yield app


async def apply_schema(pool: Pool) -> bool:
    """Apply procrastinate's schema unless it is there; True if this call applied it."""
    async with pool.connection() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        cursor = await conn.execute("SELECT to_regclass('procrastinate_jobs') IS NOT NULL")
        row = await cursor.fetchone()
        if row and row[0]:
            return False
        await conn.execute(SchemaManager.get_schema().encode())  # no params: simple protocol
    log.info("procrastinate's schema applied")
    return True


async def defer(app: procrastinate.App, submission_id: int) -> int | None:
    """Queue the grading of a stored submission; the job's id. Once: a second defer while
    one waits is refused by its queueing lock, and ignored (None)."""
    deferrer = app.configure_task(TASK, queue=QUEUE, queueing_lock=f"submission:{submission_id}")
    with contextlib.suppress(procrastinate.exceptions.AlreadyEnqueued):
        return await deferrer.defer_async(submission_id=submission_id)
    return None


async def waiting_before(app: procrastinate.App, job_id: int) -> int:
    """Jobs no grader has taken yet, queued before `job_id`: what it waits behind. (Jobs
    being graded are not counted: a free grader may be about to take this one.)"""
    row = await app.connector.execute_query_one_async(
        "SELECT count(*) AS n FROM procrastinate_jobs WHERE queue_name = %(queue)s "
        "AND status = 'todo' AND id < %(job)s",
        queue=QUEUE, job=job_id,
    )  # fmt: skip
    return int(row["n"])


async def depth(app: procrastinate.App) -> int:
    """Jobs waiting for a grader (taken ones not counted)."""
    row = await app.connector.execute_query_one_async(
        "SELECT count(*) AS n FROM procrastinate_jobs WHERE queue_name = %(queue)s "
        "AND status = 'todo'",
        queue=QUEUE,
    )  # fmt: skip
    return int(row["n"])


async def announce(pool: Pool, submission_id: int) -> None:
    """Tell every waiting process that this submission's row has its outcome."""
    async with pool.connection() as conn:
        await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, str(submission_id)))


class Verdicts:
    """Waits for verdicts recorded by graders: one LISTEN connection per bot process,
    a future per submission waited for."""

    def __init__(self, dsn: str, submissions: SubmissionStore, poll: float = POLL) -> None:
        self._dsn, self._submissions, self._poll = dsn, submissions, poll
        self._waiting: dict[int, asyncio.Event] = {}
        self._listening: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()  # set once LISTEN is in place (tests, benchmarks)

    def start(self) -> None:
        self._listening = asyncio.create_task(self._listen(), name="verdict-listener")

    async def close(self) -> None:
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listening

    async def wait(self, submission_id: int) -> Outcome:
        """The submission's outcome once it has one: graded (with its Grade), or failed."""
        event = self._waiting.setdefault(submission_id, asyncio.Event())
        try:
            while (outcome := await self._submissions.outcome(submission_id)) is None or (
                outcome.state == "queued"
            ):
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), self._poll)
                event.clear()
        finally:
            self._waiting.pop(submission_id, None)
        return outcome

    async def _listen(self) -> None:
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self._dsn, autocommit=True)
            except psycopg.Error as exc:
                log.warning("verdict listener cannot connect (%s); polling meanwhile", exc)
                await asyncio.sleep(RECONNECT)
                continue
            async with conn:
                with contextlib.suppress(psycopg.Error):
                    await self._relay(conn)
            self.ready.clear()
            await asyncio.sleep(RECONNECT)

    async def _relay(self, conn: psycopg.AsyncConnection[tuple[object, ...]]) -> None:
        await conn.execute(f"LISTEN {CHANNEL}")
        self.ready.set()
        for event in self._waiting.values():  # anything recorded while we were away
            event.set()
        async for notice in conn.notifies():
            waiting = self._waiting.get(int(notice.payload)) if notice.payload.isdigit() else None
            if waiting is not None:
                waiting.set()


PATIENCE = 300.0  # seconds a chat reply waits for a grader (Discord's follow-ups last 15 min)


class GradingQueue:
    """Grading elsewhere, as `Grading` asks for it: queue a stored submission, wait for
    its outcome, `patience` seconds at most (then TimeoutError: no grader took it in time;
    the job stays queued, and the verdict, once a grader records it, is on the record)."""

    def __init__(self, app: procrastinate.App, verdicts: Verdicts,
                 patience: float = PATIENCE) -> None:  # fmt: skip
        self._app, self._verdicts, self._patience = app, verdicts, patience

    async def outcome_of(self, submission_id: int, queued: Queued | None = None) -> Outcome:
        waiting = asyncio.create_task(self._verdicts.wait(submission_id))
        try:
            job = await defer(self._app, submission_id)
            if job is not None and queued is not None and (ahead := await self._ahead(job)):
                await queued(ahead)
            return await asyncio.wait_for(waiting, self._patience)
        finally:
            waiting.cancel()

    async def _ahead(self, job: int) -> int:
        try:
            return await waiting_before(self._app, job)
        except procrastinate.exceptions.ConnectorException:  # a notice is not worth a failure
            log.warning("could not count the jobs before job %d", job, exc_info=True)
            return 0
