"""Grading as the core uses it: admit, store, grade, record. One object, built by the root.

Every submission is written before it waits for a slot, so a crash loses none: `recover`,
called at start-up, grades again whatever was left `queued` (its verdict is then on the
person's record, `/me`), or marks it `interrupted` if its problem is gone.

An accepted solution of a problem is passed to `on_accepted` (scoring, given by the root),
whether it was graded at once or by recovery, so a crash between the two costs no points.

No one submission can block recovery: each row is tried on its own, an exception is logged
and counted and the loop goes on, and every attempt is counted in the row before it starts,
so a row that failed (or took the bot down) `MAX_ATTEMPTS` times is marked `failed` and
never tried again. An attempt that ended for the bot's own reasons (shutdown, the sandbox
unavailable) is given back.

With a grading queue (PostgreSQL; `remote`), this process does not grade: the admitted,
stored submission is handed to the queue and its outcome awaited (bot/grading/queue.py);
graders record the verdict, score it and recover what a dead grader left (the job handler
in bot/grading/worker.py takes the steps recovery takes here, attempts counted the same).

A submission that must wait behind others is told so (`queued`, with how many wait before
it) before it waits: in process, the gradings admitted earlier and not yet started; with the
queue, the jobs no grader has taken yet, across the deployment. One that starts at once
hears nothing but its verdict.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.errors import GradingDelayed, GradingFailed, GradingUnavailable
from bot.grades import Grade, Verdict
from bot.grading.admission import Admits
from bot.grading.grader import Grader
from bot.grading.problems import Problem
from bot.i18n import t
from bot.ports import Clock
from bot.store.submissions import Outcome, Submission, SubmissionStore
from bot.text.code import valid_unicode
from bot.types import ChannelRef, Locale, User

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 2  # gradings at start-up before a leftover submission is given up on


@dataclass(frozen=True, slots=True)
class Recovery:
    """What `recover` did with the submissions a previous run left unfinished."""

    graded: int = 0
    interrupted: int = 0  # its problem is gone
    failed: int = 0  # given up on: its grading failed MAX_ATTEMPTS times
    errors: int = 0  # its grading raised this time; left queued for the next start

    @property
    def total(self) -> int:
        return self.graded + self.interrupted + self.failed + self.errors

    def __str__(self) -> str:
        """A line for the log: "2 graded again, 1 left for the next start"."""
        parts = [(self.graded, "graded again"), (self.interrupted, "whose problem is gone"),
                 (self.failed, "given up on"),
                 (self.errors, "left for the next start")]  # fmt: skip
        return ", ".join(f"{n} {what}" for n, what in parts if n) or "none"


# An accepted solution: who, where it was sent (when known), the problem, when.
OnAccepted = Callable[[User, ChannelRef | None, str, datetime], Awaitable[object]]

# A submission that must wait: told how many wait before it.
Queued = Callable[[int], Awaitable[None]]


class Remote(Protocol):
    """Grading in other processes: a stored submission in, its outcome (graded or failed)
    out, once one of them has recorded it."""

    async def outcome_of(self, submission_id: int, queued: Queued | None = None) -> Outcome:
        """Queue the stored submission and wait for its outcome; TimeoutError if no grader
        took it in time (it stays queued). `queued` hears of the jobs waiting before it."""
        ...


class Grading:
    def __init__(self, grader: Grader, admission: Admits, submissions: SubmissionStore,
                 clock: Clock, starting: asyncio.Task[None] | None = None,
                 on_accepted: OnAccepted | None = None,
                 remote: Remote | None = None) -> None:  # fmt: skip
        """`starting`: the sandbox's start and the problems' loading, if still under way.
        `remote`: the grading queue, when graders grade and this process only waits."""
        self.grader, self.admission, self.submissions = grader, admission, submissions
        self._clock, self._starting, self._on_accepted = clock, starting, on_accepted
        self._remote = remote
        self._recovery: asyncio.Task[Recovery] | None = None

    def unready(self) -> str | None:
        """Why this process cannot grade yet (None: it can, or graders grade): the
        sandbox still starting, or its start failed (strict isolation refused a layer)."""
        starting = self._starting
        if self._remote is not None or starting is None:
            return None
        if not starting.done():
            return "grading sandbox starting"
        if starting.cancelled() or starting.exception() is not None:
            return "grading sandbox not running"
        return None

    def start_recovery(self, platform: str | None = None) -> asyncio.Task[Recovery]:
        """`recover` in the background (start-up), as a task the owner stops at shutdown;
        only `platform`'s submissions, if named."""
        task = asyncio.create_task(self.recover(platform), name="grading-recovery")
        self._recovery = task
        return task

    async def recovered(self) -> Recovery:
        """Wait for the background recovery started by `start_recovery` (none: nothing)."""
        return await asyncio.shield(self._recovery) if self._recovery else Recovery()

    async def started(self) -> None:
        """Wait until the sandbox is up and the problems are loaded. Start-up does that in
        the background, so the bot answers everything else at once; a submission in its
        first second waits for it. A start that failed is `GradingUnavailable`."""
        if self._starting is None:
            return
        try:
            await asyncio.shield(self._starting)
        except (GradingUnavailable, asyncio.CancelledError):
            raise
        except Exception as exc:
            raise GradingUnavailable(f"the grading sandbox did not start: {exc}") from exc

    def problem(self, problem_id: str) -> Problem | None:
        return self.grader.problem(problem_id)

    async def submit(self, user: User, locale: Locale, problem: Problem, code: str,
                     where: ChannelRef | None = None, *,
                     queued: Queued | None = None) -> Grade:  # fmt: skip
        """Grade a solution of `problem`, sent `where` (stored with it, for the boards)."""
        return await self._graded(user, locale, problem, code, where, queued)

    async def run(self, user: User, locale: Locale, code: str, *,
                  queued: Queued | None = None) -> Grade:  # fmt: skip
        return await self._graded(user, locale, None, code, None, queued)

    async def _graded(self, user: User, locale: Locale, problem: Problem | None, code: str,
                      where: ChannelRef | None, queued: Queued | None) -> Grade:  # fmt: skip
        await self.started()
        code = valid_unicode(code)  # graded as stored
        pid = problem.id if problem else None

        def store() -> Awaitable[int]:
            return self.submissions.add(user, pid, code, self._clock.now(), where)

        place = await self.admission.place(user, locale, "submit" if problem else "run", store)
        if self._remote is not None:
            try:
                outcome = await self._remote.outcome_of(place.submission_id, queued)
            except TimeoutError:
                raise GradingDelayed(t(locale, "grading.delayed")) from None
            return _verdict(outcome, locale)
        if place.ahead and queued is not None:
            await queued(place.ahead)
        async with place:
            grade = await (self.grader.grade(problem, code) if problem else self.grader.run(code))
        await self.submissions.finish(place.submission_id, grade, self._clock.now())
        if problem is not None:
            await self._accepted(grade, user, where, problem.id)
        return grade

    async def _accepted(self, grade: Grade, user: User, where: ChannelRef | None,
                        problem_id: str) -> None:  # fmt: skip
        if grade.verdict is Verdict.ACCEPTED and self._on_accepted is not None:
            await self._on_accepted(user, where, problem_id, self._clock.now())

    async def recover(self, platform: str | None = None) -> Recovery:
        """Grade again what a previous run left unfinished, one row at a time (only
        `platform`'s, if named: the rest are another process's to grade)."""
        await self.started()
        left = await self.submissions.unfinished(platform)
        counts: Counter[str] = Counter()
        for s in left:
            try:
                counts[await self._again(s)] += 1
            except Exception:  # the store, or the sandbox down: this row waits for next time
                log.exception("submission %d could not be graded again", s.id)
                counts["errors"] += 1
        done = Recovery(**counts)
        if left:
            log.info("submissions left unfinished by the last run: %s", done)
        return done

    async def _again(self, s: Submission) -> str:
        """Grade one leftover submission; returns what became of it (a `Recovery` field)."""
        problem = self.problem(s.problem_id) if s.problem_id else None
        if s.problem_id and problem is None:
            await self.submissions.interrupt(s.id)
            return "interrupted"
        if s.attempts >= MAX_ATTEMPTS:  # the last start went down grading it, again
            await self.submissions.fail(s.id, self._clock.now())
            return "failed"
        attempt = await self.submissions.attempt(s.id)
        try:
            grade = await grade_stored(self.grader, self.submissions, s, problem)
        except (GradingUnavailable, asyncio.CancelledError):
            raise
        except Exception:
            log.exception("grading submission %d again raised (attempt %d)", s.id, attempt)
            if attempt < MAX_ATTEMPTS:
                return "errors"
            await self.submissions.fail(s.id, self._clock.now())
            return "failed"
        await self.submissions.finish(s.id, grade, self._clock.now())
        if problem is not None:
            await self._accepted(grade, s.author(), s.sent_to(), problem.id)
        return "graded"


async def grade_stored(grader: Grader, submissions: SubmissionStore, s: Submission,
                       problem: Problem | None) -> Grade:  # fmt: skip
    """Grade a stored submission whose attempt is counted. An attempt that ended for the
    bot's own reasons (shutdown, the sandbox unavailable) is given back: not the code's
    doing, so it must not bring the submission nearer to being given up on."""
    try:
        return await (grader.grade(problem, s.code) if problem else grader.run(s.code))
    except (GradingUnavailable, asyncio.CancelledError):
        await asyncio.shield(submissions.give_back(s.id))
        raise


def _verdict(outcome: Outcome, locale: Locale) -> Grade:
    """The Grade a grader recorded, or the reply for a submission it gave up on."""
    if outcome.state == "graded" and outcome.grade is not None:
        return outcome.grade
    if outcome.state == "failed":
        raise GradingFailed(t(locale, "grading.failed"))
    raise GradingUnavailable(f"the submission's grading ended {outcome.state}")
