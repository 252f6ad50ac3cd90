"""Admission across every process of a deployment, over the database (PostgreSQL).

The same contract as the in-memory `Admission` (bot/grading/admission.py): one grading
waiting or running per person, a per-minute allowance per person and kind, and a bound on
the queue, refused at once with a `TooBusy` that says why. The difference is where the
facts live: in the `submissions` rows themselves, which every bot process writes. A person's
grading is "running" while their row is `queued` (until a grader records its verdict); the
allowance counts their rows sent in the last minute; the queue is every `queued` row.

Deciding and inserting happen in one transaction under one transaction-scoped advisory
lock, so two processes admitting at once take turns: no second grading for a person slips
in between the check and the insert, and the bound holds exactly. (One lock for the whole
deployment, not one per person: the bound is a fact about everyone. A decision is a few
indexed reads and one insert, about a millisecond, so turns are short.)

Waiting for a slot is the queue's business (graders take jobs as they free up), so the
`Place` returned has no ticket.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.errors import TooBusy
from bot.grading.admission import Place, Store
from bot.i18n import t
from bot.ports import Clock
from bot.store.db import Database
from bot.store.submissions import Standing, SubmissionStore
from bot.types import Locale, User

MINUTE = timedelta(minutes=1)
# pg_advisory_xact_lock's key for "admitting a grading" ("grading!" in ASCII).
ADMISSION_LOCK = int.from_bytes(b"grading!", "big") & 0x7FFF_FFFF_FFFF_FFFF


@dataclass(frozen=True, slots=True)
class SharedAdmissionConfig:
    queue_size: int = 256  # gradings waiting across the deployment, beyond which we refuse
    per_minute: int = 6  # gradings a person may start in any minute, per kind


class SharedAdmission:
    def __init__(self, db: Database, submissions: SubmissionStore, clock: Clock,
                 config: SharedAdmissionConfig = SharedAdmissionConfig()) -> None:  # fmt: skip
        self._db, self._submissions, self._clock, self.config = db, submissions, clock, config

    async def place(self, user: User, locale: Locale, kind: str, store: Store) -> Place:
        async with self._db.transaction():
            await self._db.execute("SELECT pg_advisory_xact_lock(?)", (ADMISSION_LOCK,))
            now = self._clock.now()
            standing = await self._submissions.standing(user, kind, now - MINUTE)
            self._check(standing, now, locale)
            submission_id = await store()
        # Everyone waiting was admitted before, under this lock: a smaller id, ahead of us.
        return Place(submission_id, standing.queued)

    def _check(self, standing: Standing, now: datetime, locale: Locale) -> None:
        if standing.pending:
            raise TooBusy(t(locale, "grading.one_at_a_time"))
        if standing.recent >= self.config.per_minute and standing.oldest_recent is not None:
            wait = int((standing.oldest_recent + MINUTE - now).total_seconds()) + 1
            raise TooBusy(t(locale, "grading.rate", limit=self.config.per_minute, seconds=wait))
        if standing.queued >= self.config.queue_size:
            raise TooBusy(t(locale, "grading.busy", ahead=standing.queued))
