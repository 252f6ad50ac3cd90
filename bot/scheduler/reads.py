"""What the jobs of one tick share: reads made once per tick instead of once per channel.

When a thousand channels are due in the same minute they draw from a handful of topic pools,
ask about a handful of cycles and post a handful of questions: each is read from the database
once and kept here. A `TickReads` lives for one tick (or one `daily now`) and is dropped,
so nothing read here can go stale.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from bot.schedule.model import Cycle
from bot.store.questions import QuestionStore
from bot.store.schedules import Post, ScheduleStore
from bot.types import Asked, Kind, Question


class TickReads:
    def __init__(self, ledger: ScheduleStore, questions: QuestionStore) -> None:
        self._ledger, self._questions = ledger, questions
        self._cycles: dict[tuple[int, Kind], Cycle] = {}
        self._pools: dict[tuple[Kind, str | None, str], list[str]] = {}
        self._texts: dict[str, asyncio.Task[Question | None]] = {}
        self._reports: dict[tuple[str, str], Asked] = {}

    async def prefetch_cycles(self, schedule_ids: Iterable[int]) -> None:
        """Read the cycles of every schedule due in this tick, in one query."""
        ids = set(schedule_ids)
        if ids:
            found = await self._ledger.current_cycles(ids)
            empty = {(sid, kind): Cycle() for sid in ids for kind in Kind}
            self._cycles.update(empty | found)

    async def asked(self, schedule_id: int, kind: Kind) -> Cycle:
        key = (schedule_id, kind)
        if key not in self._cycles:
            found = await self._ledger.current_cycles([schedule_id])
            self._cycles[key] = found.get(key, Cycle())
        return self._cycles[key]

    async def starts_cycle(self, post: Post) -> bool:
        """Whether `post` opens a new round. Known without a query when this tick read the
        schedule's cycle before choosing the post (the post is then one round further); a
        retry from an earlier tick asks the ledger."""
        before = self._cycles.get((post.schedule_id, post.kind))
        if before is not None and post.question_id not in before.asked:
            return post.cycle == before.number + 1
        return await self._ledger.starts_cycle(post)

    async def pool(self, kind: Kind, topic: str | None, server: str = "") -> list[str]:
        """The questions a schedule of `server` may draw from (the shared bank's and that
        server's own); one query per filter per server per tick."""
        key = (kind, topic, server)
        if key not in self._pools:
            found = await self._questions.ids_matching(kind=kind, topic=topic, server=server)
            self._pools[key] = found
        return self._pools[key]

    async def question(self, question_id: str) -> Question | None:
        """The question a post shows, retired or not (a post made before it left must still
        find it). Read once a tick: the posts sent at once wait for the same read."""
        if question_id not in self._texts:
            read = self._questions.get(question_id, retired=True)
            self._texts[question_id] = asyncio.ensure_future(read)
        return await asyncio.shield(self._texts[question_id])

    async def reports(self, question_id: str, server: str) -> Asked:
        """How often the question was asked, as `server` counts it; once a tick per server."""
        key = (question_id, server)
        if key not in self._reports:
            self._reports[key] = await self._questions.asked(question_id, server)
        return self._reports[key]
