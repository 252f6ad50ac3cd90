"""Filing, paging and resolving reported mistakes; the reporter told by direct message.

`Mistakes` is what the commands use (bot/commands/mistakes.py): it caps what a member may
file (`PER_HOUR` in any hour, counted from the stored reports on the injected clock, so every
process agrees and a test moves time instead of waiting), and, once a report is resolved,
sends its note to the reporter through their platform's `ChatAdapter.send_direct`, in the
language they reported in. A reporter who cannot be reached (forgotten, direct messages
closed, the platform not attached) does not undo the resolution: the moderator is told.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from bot.errors import DeliveryError
from bot.mistakes import PER_HOUR
from bot.mistakes.views import note_reply
from bot.platforms import Platforms
from bot.ports import Clock
from bot.store.mistakes import MistakeStore, NewReport, Report
from bot.types import User

log = logging.getLogger(__name__)


class Mistakes:
    def __init__(self, store: MistakeStore, clock: Clock, platforms: Platforms) -> None:
        self._store, self._clock, self._platforms = store, clock, platforms

    async def allowed(self, user: User) -> bool:
        """Whether `user` may file another report now (fewer than `PER_HOUR` in the hour)."""
        since = self._clock.now() - timedelta(hours=1)
        return await self._store.filed_since(user, since) < PER_HOUR

    async def file(self, new: NewReport) -> int:
        return await self._store.add(new, self._clock.now())

    async def page(self, server: str, index: int) -> tuple[Report | None, int]:
        return await self._store.open_page(server, index)

    async def resolve(
        self, report_id: int, server: str, resolver: User, note: str
    ) -> Report | None:
        return await self._store.resolve(report_id, server, resolver, note, self._clock.now())

    async def tell_reporter(self, report: Report, title: str) -> bool:
        """Send the resolution's note to the reporter; whether it was delivered."""
        adapter = self._platforms.get(report.platform)
        if report.reporter_id is None or adapter is None:
            return False
        reporter = User(report.platform, report.reporter_id, report.reporter_name or "")
        try:
            await adapter.send_direct(reporter, note_reply(report, title))
        except DeliveryError as exc:
            log.warning("note on report %s not delivered: %s", report.id, exc)
            return False
        return True
