"""Giving, posting and adopting answers from the group.

`Answers` is what the commands use (bot/commands/answers.py). It caps how many answers a
member may give (`PER_HOUR` in any hour, counted from the stored answers on the injected
clock), and posts each answer for the group through the platform's `ChatAdapter.send`: under
the item's daily post in that server (`thread_of`) when there is one, else in the channel it
was given in. A post that cannot be delivered (the platform refuses, or is not attached) does
not undo the answer: it is stored, and moderators find it with `/answers <id>`.

An adopted explanation names its author wherever it is shown (`/answer` and its language
buttons, a review's explanation, the daily answer post): each of those replies goes through
`credit`, the one place that looks the author up and adds the line.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from bot.answers import LISTED, PER_HOUR, is_open
from bot.answers.views import answer_post, credited
from bot.errors import DeliveryError
from bot.platforms import Platforms
from bot.ports import Clock
from bot.store.answers import AnswerStore, GroupAnswer, NewAnswer
from bot.store.community import PREFIX
from bot.types import ChannelRef, Locale, Question, Reply, User

log = logging.getLogger(__name__)


class Answers:
    def __init__(self, store: AnswerStore, clock: Clock, platforms: Platforms) -> None:
        self._store, self._clock, self._platforms = store, clock, platforms

    async def allowed(self, user: User) -> bool:
        """Whether `user` may give another answer now (fewer than `PER_HOUR` in the hour)."""
        since = self._clock.now() - timedelta(hours=1)
        return await self._store.given_since(user, since) < PER_HOUR

    async def give(self, new: NewAnswer) -> GroupAnswer:
        return await self._store.add(new, self._clock.now())

    async def post(self, answer: GroupAnswer, q: Question, channel: ChannelRef,
                   locale: Locale) -> bool:  # fmt: skip
        """Show `answer` to the group (in `locale`, or under a daily post in its schedule's
        language); whether it was delivered."""
        adapter = self._platforms.get(channel.platform)
        if adapter is None:
            return False
        found = await self._store.thread_of(q.id, answer.server, channel)
        thread, locale = found if found is not None else (None, locale)  # its post's language
        where = thread.channel if thread is not None else channel
        try:
            await adapter.send(where, answer_post(answer, q, locale), thread_of=thread)
        except DeliveryError as exc:
            log.warning("answer %s not posted: %s", answer.id, exc)
            return False
        return True

    async def open_for(self, server: str, item: str) -> tuple[list[GroupAnswer], int]:
        return await self._store.open_for(server, item, LISTED)

    async def get(self, answer_id: int, server: str) -> GroupAnswer | None:
        return await self._store.get(answer_id, server)

    async def credit(self, reply: Reply, q: Question, server: str, locale: Locale) -> Reply:
        """`reply`, showing `q`'s explanation as `server` serves it, with "Answer by <name>"
        (in `locale`) under it when the group wrote that explanation."""
        if not q.id.startswith(PREFIX) or is_open(q):
            return reply  # the shared bank's explanations and open items': nothing to look up
        adopted = await self._store.adopted(q.id, server)
        return reply if adopted is None else credited(reply, adopted, locale)

    async def adopt(self, answer: GroupAnswer, q: Question, moderator: User) -> bool:
        return await self._store.adopt(answer, q, moderator, self._clock.now())
