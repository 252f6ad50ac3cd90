"""Keeping each quiz post's tally ("12 answered so far, 9 right") current by editing it.

Answers come in bursts right after a post, and platforms limit edits (Discord about five
per five seconds per channel), so a post is edited at most once per `interval`: the first
answer edits at once, the answers of the next `interval` share one edit at its end, which
reads the tally then. So 200 answers in ten seconds cost three edits, not 200, and the last
edit always shows the last count. Times come from the injected clock.

An edit that fails is logged and dropped: the next answer asks again, and the answer post
reveals the final tally in any case.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from bot.platforms import Platforms
from bot.ports import Clock
from bot.quiz import QuizPost
from bot.scheduler.poster import question_post_reply
from bot.store.questions import QuestionStore
from bot.store.quizzes import QuizStore
from bot.store.schedules import ScheduleStore
from bot.types import MessageRef

log = logging.getLogger(__name__)

EDIT_INTERVAL = timedelta(seconds=5)


class Tallies:
    def __init__(self, ledger: ScheduleStore, questions: QuestionStore, quizzes: QuizStore,
                 platforms: Platforms, clock: Clock,
                 interval: timedelta = EDIT_INTERVAL) -> None:  # fmt: skip
        self._ledger, self._questions, self._quizzes = ledger, questions, quizzes
        self._platforms, self._clock, self._interval = platforms, clock, interval
        self._edited: dict[str, datetime] = {}
        self._pending: dict[str, asyncio.Task[None]] = {}  # waiting for their turn to edit
        self._running: set[asyncio.Task[None]] = set()  # waiting or editing

    def changed(self, post: QuizPost) -> None:
        """An answer counted: edit the post now, or at the end of its current interval."""
        key = post.key()
        if key not in self._pending:
            task = asyncio.create_task(self._edit_later(post), name=f"tally {key}")
            self._pending[key] = task
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def settled(self) -> None:
        """Wait for the edits planned so far (tests; shutdown)."""
        while self._running:
            await asyncio.gather(*list(self._running), return_exceptions=True)

    async def close(self, grace: float = 1.0) -> None:
        """Let the edits under way finish (a second at most: a post's first edit is made at
        once, so a quick exit still shows the first answer), then drop those still waiting."""
        if self._running:
            await asyncio.wait(list(self._running), timeout=grace)
        for task in list(self._running):
            task.cancel()
        await asyncio.gather(*list(self._running), return_exceptions=True)

    async def _edit_later(self, post: QuizPost) -> None:
        key = post.key()
        try:
            last = self._edited.get(key)
            if last is not None:
                await self._clock.sleep_until(last + self._interval)
            self._pending.pop(key, None)  # answers from now on ask for the next edit
            self._edited[key] = self._clock.now()
            await self._edit(post)
        except Exception:
            log.exception("quiz post %s: the tally edit failed", key)
        finally:
            if self._pending.get(key) is asyncio.current_task():
                self._pending.pop(key, None)

    async def _edit(self, post: QuizPost) -> None:
        asked = await self._ledger.question_post(post.schedule_id, post.slot)
        schedule = await self._ledger.get(post.schedule_id)
        if asked is None or asked.message_id is None or schedule is None:
            return
        adapter = self._platforms.get(schedule.channel.platform)
        question = await self._questions.get(asked.question_id, retired=True)
        if adapter is None or question is None:
            return
        tally = await self._quizzes.tally(post.schedule_id, post.slot)
        new_round = await self._ledger.starts_cycle(asked)
        reports = await self._questions.asked(question.id, schedule.channel.server)
        reply = question_post_reply(question, schedule, post.slot, tally, new_round, reports)
        await adapter.edit(MessageRef(schedule.channel, asked.message_id), reply)
