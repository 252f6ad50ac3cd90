"""Grading as the core uses it: admit, store, grade, record. One object, built by the root.

Every submission is written before it waits for a slot, so a crash loses none: `recover`,
called at start-up, grades again whatever was left `queued` (its verdict is then on the
person's record, `/me`), or marks it `interrupted` if its problem is gone.
"""

from __future__ import annotations

import logging

from bot.grading.admission import Admission
from bot.grading.grader import Grader
from bot.grading.problems import Problem
from bot.grading.results import Grade
from bot.ports import Clock
from bot.store.submissions import SubmissionStore
from bot.types import Locale, User

log = logging.getLogger(__name__)


class Grading:
    def __init__(self, grader: Grader, admission: Admission, submissions: SubmissionStore,
                 clock: Clock) -> None:  # fmt: skip
        self.grader, self.admission, self.submissions = grader, admission, submissions
        self._clock = clock

    def problem(self, problem_id: str) -> Problem | None:
        return self.grader.problem(problem_id)

    async def submit(self, user: User, locale: Locale, problem: Problem, code: str) -> Grade:
        return await self._graded(user, locale, problem, code)

    async def run(self, user: User, locale: Locale, code: str) -> Grade:
        return await self._graded(user, locale, None, code)

    async def _graded(self, user: User, locale: Locale, problem: Problem | None,
                      code: str) -> Grade:  # fmt: skip
        ticket = self.admission.admit(user, locale)
        try:
            pid = problem.id if problem else None
            submission = await self.submissions.add(user, pid, code, self._clock.now())
        except BaseException:
            ticket.cancel()
            raise
        async with ticket:
            grade = await (self.grader.grade(problem, code) if problem else self.grader.run(code))
        await self.submissions.finish(submission, grade, self._clock.now())
        return grade

    async def recover(self) -> int:
        """Grade again what a previous run left unfinished; returns how many."""
        left = await self.submissions.unfinished()
        for s in left:
            problem = self.problem(s.problem_id) if s.problem_id else None
            if s.problem_id and problem is None:
                await self.submissions.interrupt(s.id)
                continue
            grade = await (self.grader.grade(problem, s.code) if problem
                           else self.grader.run(s.code))  # fmt: skip
            await self.submissions.finish(s.id, grade, self._clock.now())
        if left:
            log.info("graded %d submission(s) left unfinished by the last run", len(left))
        return len(left)
