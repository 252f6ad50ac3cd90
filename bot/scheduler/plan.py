"""The due heap: every job the scheduler will do, keyed by the instant it is due.

Each active schedule has its next question here (and its next weekly summary, if it asked
for one), each posted question its answer, each refused post its retry. The loop sleeps
until the earliest one and never scans every schedule. A schedule's jobs carry its version
when planned: changing or pausing it bumps the version, and its old jobs are dropped when
they come due instead of being dug out.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from bot.schedule.model import Schedule
from bot.store.schedules import Post


@dataclass(frozen=True, slots=True)
class QuestionJob:
    schedule_id: int
    version: int  # the schedule's version when planned; a changed schedule drops the job
    due: datetime


@dataclass(frozen=True, slots=True)
class AnswerJob:
    schedule_id: int
    slot: str


@dataclass(frozen=True, slots=True)
class RetryJob:
    post: Post


@dataclass(frozen=True, slots=True)
class SummaryJob:
    schedule_id: int
    version: int  # as for QuestionJob
    due: datetime


Job = QuestionJob | AnswerJob | RetryJob | SummaryJob


@dataclass(order=True)
class _Entry:
    due: datetime
    seq: int
    job: Job = field(compare=False)


class Plan:
    """Jobs by due instant. `wake` is called whenever a job is added (the loop may need to
    wake earlier than it meant to)."""

    def __init__(self, wake: Callable[[], None]) -> None:
        self._heap: list[_Entry] = []
        self._seq = itertools.count()
        self._versions: dict[int, int] = {}
        self._wake = wake

    def next_due(self) -> datetime | None:
        return self._heap[0].due if self._heap else None

    def take_due(self, now: datetime) -> list[Job]:
        """Remove and return every job due at or before `now`, earliest first."""
        due: list[Job] = []
        while self._heap and self._heap[0].due <= now:
            due.append(heapq.heappop(self._heap).job)
        return due

    def schedule(self, schedule: Schedule, after: datetime, since: datetime | None = None) -> None:
        """Plan an active schedule's recurring jobs: its next question after `after`, and its
        next weekly summary (if it asked for one) after `since`, else `after`. (A summary's
        own ledger says whether it went out, so at start-up it may look further back.)"""
        self.question(schedule, after)
        if schedule.weekly_summary:
            self.summary(schedule, since or after)

    def summary(self, schedule: Schedule, after: datetime) -> None:
        """Plan the schedule's first weekly summary after `after`."""
        instants = schedule.summary_slot.next_after(after)
        if instants:
            self._push(instants[0], SummaryJob(schedule.id, self._version(schedule.id),
                                               instants[0]))  # fmt: skip

    def question(self, schedule: Schedule, after: datetime) -> None:
        """Plan the schedule's first question slot after `after`."""
        instants = schedule.slot.next_after(after)
        if instants:
            self._push(instants[0], QuestionJob(schedule.id, self._version(schedule.id),
                                                instants[0]))  # fmt: skip

    def answer(self, schedule: Schedule, question: Post) -> None:
        """Plan the answer of a posted question, when the schedule says it follows."""
        self.answer_of(schedule, question.slot, question.due_at)

    def answer_of(self, schedule: Schedule, slot: str, asked: datetime) -> None:
        """Plan the answer of the question of `slot`, due at `asked`."""
        self._push(schedule.answer.due(asked, schedule.zone), AnswerJob(schedule.id, slot))

    def retry(self, post: Post, due: datetime) -> None:
        self._push(due, RetryJob(post))

    def changed(self, schedule_id: int) -> None:
        """The schedule changed (or paused): its question jobs planned so far are stale."""
        self._versions[schedule_id] = self._version(schedule_id) + 1

    def current(self, job: QuestionJob | SummaryJob) -> bool:
        return job.version == self._version(job.schedule_id)

    def _version(self, schedule_id: int) -> int:
        return self._versions.get(schedule_id, 0)

    def _push(self, due: datetime, job: Job) -> None:
        heapq.heappush(self._heap, _Entry(due, next(self._seq), job))
        self._wake()
