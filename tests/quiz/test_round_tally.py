"""The post that starts a new round keeps saying so when its quiz tally is edited in place."""

from __future__ import annotations

from datetime import timedelta

from bot.i18n import t
from bot.settings import Settings
from bot.store.db import Database
from bot.types import Locale
from tests.fakes import FakeAdapter, FakeClock
from tests.quiz.test_channel_quiz import ALICE, POSTED, click, content_dir, posted

__all__ = ["content_dir"]  # the fixture: the schedule's topic holds one item with a quiz


async def test_a_new_rounds_post_keeps_its_notice_through_tally_edits(
    loaded_database: Database, settings: Settings, clock: FakeClock
) -> None:
    adapter = FakeAdapter()
    notice = t(Locale.EN, "schedule.new_round")
    async with posted(loaded_database, settings, clock, adapter) as app:
        for hours in (8, 24):  # the first day's answer, then the second day's question
            clock.set(POSTED + timedelta(hours=hours))
            await app.scheduler.tick()
        first, second = [s for s in adapter.sent if s.thread_of is None]
        assert notice not in first.reply.body and second.reply.body.startswith(notice)
        await click(app, second.reply, 0, ALICE)
        assert app.tallies is not None
        await app.tallies.settled()
        ((ref, edited),) = adapter.edits
        assert ref == second.ref and edited.body.startswith(notice)
        assert "1 answered so far" in edited.body
