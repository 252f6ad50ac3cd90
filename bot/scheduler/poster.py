"""Posting one claimed post: render it, send it, record it; retry or give up when refused.

Exactly once: a post reaches `send` only after its ledger row (schedule, slot, part) has
been claimed, and a claimed slot is never claimed again; a post sent again later (a retry,
a post that waited for its platform, one taken over from a dead process) is first held
again under this process's lease (`resend`), so only one process ever sends it. Sent posts
are recorded together by `flush` at the end of a tick; until then they are still `pending`,
which is the one window the module docstring of `bot.scheduler` describes.

A refused post is retried with growing delays; a permanent refusal, or too many, pauses its
schedule and records why (which `/schedule show` reports). A post whose platform is away is
parked and sent when the platform attaches again.

An answer post whose explanation the group wrote names its author, as `/answer` does
(`Answers.credit`, in the schedule's language; a server's own items only, so the shared
bank's answers cost no extra read).
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from datetime import datetime, timedelta

from bot.answers.service import Answers
from bot.errors import DeliveryError
from bot.i18n import t
from bot.learning.scores import Scores
from bot.platforms import Platforms
from bot.ports import Clock, Metrics
from bot.quiz import QuizPost, QuizView, Tally, shown_for
from bot.schedule.model import Schedule
from bot.scheduler.leases import Leases
from bot.scheduler.plan import Plan
from bot.scheduler.reads import TickReads
from bot.store.quizzes import QuizStore
from bot.store.schedules import Part, Post, ScheduleStore
from bot.store.submissions import SubmissionStore
from bot.types import Asked, Kind, Locale, MessageRef, Question, Reply
from bot.views import answer_reply, question_reply

log = logging.getLogger(__name__)

ON_TIME = timedelta(minutes=1)  # a post sent later than this after its slot counts as late


class Poster:
    """Sends posts for the schedules in `roster` (the scheduler's current schedules by id,
    shared with it: a pause here is seen there)."""

    def __init__(self, ledger: ScheduleStore, platforms: Platforms, clock: Clock, plan: Plan,
                 roster: dict[int, Schedule], retry_delays: tuple[timedelta, ...],
                 submissions: SubmissionStore | None, quizzes: QuizStore | None,
                 scores: Scores | None, leases: Leases, metrics: Metrics,
                 answers: Answers | None = None) -> None:  # fmt: skip
        self._ledger, self._platforms, self._clock = ledger, platforms, clock
        self._leases, self._metrics = leases, metrics
        self._plan, self._roster, self._retry_delays = plan, roster, retry_delays
        self._submissions = submissions  # for "solved so far" under a coding answer
        self._quizzes = quizzes  # for the channel's result under an answer
        self._scores = scores  # for who solved a coding day's problem before its answer
        self._answers = answers  # for who wrote an explanation the group gave
        self._sent: list[tuple[Post, str, datetime]] = []
        self.parked: dict[str, list[Post]] = {}  # claimed posts waiting for their platform

    async def send(self, post: Post, reads: TickReads) -> bool:
        """Deliver a claimed post; record success, or plan a retry, or give up and pause."""
        schedule = self._roster.get(post.schedule_id)
        if schedule is None:
            return False  # removed since it was claimed: stays pending, harmless
        adapter = self._platforms.get(schedule.channel.platform)
        if adapter is None:  # its platform went away: sent when it attaches again
            self.parked.setdefault(schedule.channel.platform, []).append(post)
            return False
        try:
            reply, thread_of = await self._render(schedule, post, reads)
            ref = await adapter.send(schedule.channel, reply, thread_of=thread_of,
                                     nonce=post.nonce)  # fmt: skip
        except DeliveryError as exc:
            await self._failed(schedule, post, str(exc), permanent=exc.permanent)
            return False
        except Exception as exc:  # an adapter bug is not the channel's fault: retry it
            log.exception("schedule %d: posting raised", schedule.id)
            await self._failed(schedule, post, f"{type(exc).__name__}: {exc}", permanent=False)
            return False
        now = self._clock.now()
        self._sent.append((post, ref.message_id, now))
        self._metrics.daily_post("late" if now - post.due_at > ON_TIME else "sent")
        if post.part == "question":
            self._plan.answer(schedule, post)
        return True

    async def resend(self, post: Post, reads: TickReads) -> bool:
        """Send a post claimed earlier, if it is still pending and still ours (or its lease
        lapsed): another process may have taken it over, and sent it, meanwhile."""
        if not await self._leases.retake(post):
            log.info("schedule %d slot %s %s: taken over by another process",
                     post.schedule_id, post.slot, post.part)  # fmt: skip
            return False
        return await self.send(post, reads)

    async def answer(self, schedule_id: int, slot: str, reads: TickReads) -> None:
        """Claim and send the answer of a question that was posted (and only if it was)."""
        question = await self._ledger.question_post(schedule_id, slot)
        if question is None or question.state != "sent":
            return
        post = new_post(schedule_id, slot, "answer", question.question_id, question.kind,
                        question.cycle, self._clock.now())  # fmt: skip
        if await self._ledger.claim(post, self._leases.lease()):
            await self.send(post, reads)

    async def flush(self) -> None:
        """Record the message references of everything sent since the last flush, at once."""
        if self._sent:
            sent, self._sent = self._sent, []
            await self._ledger.mark_all_sent(sent)

    async def pause(self, schedule_id: int, reason: str) -> None:
        await self._ledger.set_paused(schedule_id, True, reason)
        self._plan.changed(schedule_id)
        if schedule_id in self._roster:
            paused = dataclasses.replace(self._roster[schedule_id], paused=True,
                                         pause_reason=reason)  # fmt: skip
            self._roster[schedule_id] = paused

    async def _render(self, schedule: Schedule, post: Post,
                      reads: TickReads) -> tuple[Reply, MessageRef | None]:  # fmt: skip
        question = await reads.question(post.question_id)
        if question is None:
            raise DeliveryError(f"question {post.question_id} is gone", permanent=True)
        if post.part == "question":
            new_round = await reads.starts_cycle(post)
            reports = await reads.reports(question.id, schedule.channel.server)
            return question_post_reply(question, schedule, post.slot, Tally(), new_round,
                                       reports), None  # fmt: skip
        asked = await self._ledger.question_post(post.schedule_id, post.slot)
        thread = (
            MessageRef(schedule.channel, asked.message_id) if asked and asked.message_id else None
        )
        solvers, quiz, early = None, None, None
        if question.kind is Kind.CODING and self._submissions is not None:
            solvers = await self._submissions.solvers(question.id)
        if question.kind is Kind.CODING and self._scores is not None:
            early = await self._scores.daily_solvers(schedule.id, post.slot)
        at = QuizPost(schedule.id, post.slot)
        shown = shown_for(question, at) if question.kind is Kind.QA else None
        if shown is not None and self._quizzes is not None:
            quiz = QuizView(at, shown, await self._quizzes.tally(schedule.id, post.slot))
        reply = answer_reply(question, schedule.locale, solvers, quiz=quiz, early=early,
                             also=_also(schedule))  # fmt: skip
        if self._answers is not None:
            server, locale = schedule.channel.server, schedule.locale
            reply = await self._answers.credit(reply, question, server, locale)
        return reply, thread

    async def _failed(self, schedule: Schedule, post: Post, error: str, *, permanent: bool) -> None:
        attempts = post.attempts + 1
        final = permanent or attempts > len(self._retry_delays)
        await self._ledger.mark_attempt(post, error, final=final)
        if final:
            reason = f"posting failed {attempts} time(s): {error}"
            log.error("schedule %d paused: %s", schedule.id, reason)
            self._metrics.daily_post("missed")
            await self.pause(schedule.id, reason)
            return
        retry = dataclasses.replace(post, attempts=attempts)
        self._plan.retry(retry, self._clock.now() + self._retry_delays[attempts - 1])


def question_post_reply(question: Question, schedule: Schedule, slot: str, tally: Tally,
                        new_round: bool = False, asked: Asked | None = None) -> Reply:  # fmt: skip
    """A daily post of `question`: an explained question asks its quick check (if it has
    one) with the channel's tally; a coding problem keeps its Submit button. The first post
    of a new cycle says that the pool was used up and starts again. `asked`: how often the
    question was asked, as the channel's server counts it (the card's asked line)."""
    at = QuizPost(schedule.id, slot)
    shown = shown_for(question, at) if question.kind is Kind.QA else None
    quiz = QuizView(at, shown, tally) if shown is not None else None
    reply = question_reply(question, schedule.locale, quiz=quiz, also=_also(schedule),
                           asked=asked)  # fmt: skip
    if not new_round:
        return reply
    return dataclasses.replace(reply, body=f"{t(schedule.locale, 'schedule.new_round')}\n\n"
                                           f"{reply.body}")  # fmt: skip


def _also(schedule: Schedule) -> Locale | None:
    """The second language of a bilingual channel's posts."""
    return schedule.locale.other() if schedule.bilingual else None


def new_post(schedule_id: int, slot: str, part: Part, question_id: str, kind: Kind, cycle: int,
             due: datetime) -> Post:  # fmt: skip
    """A post not yet claimed, with its stable nonce."""
    return Post(schedule_id, slot, part, question_id, kind, cycle, due, "pending", 0,
                _nonce(schedule_id, slot, part), None)  # fmt: skip


def _nonce(schedule_id: int, slot: str, part: Part) -> str:
    """Stable per post and at most 25 characters (Discord's limit for a message nonce)."""
    return hashlib.sha256(f"{schedule_id}/{slot}/{part}".encode()).hexdigest()[:25]
