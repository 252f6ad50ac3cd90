"""A daily quiz a member answered counts as seen: their next `/question` in that workspace
prefers a question they have not met, even before the ledger has their answer."""

from __future__ import annotations

from bot.settings import Settings
from bot.store.db import Database
from bot.types import ActionKind, Locale, User
from tests.fakes import FakeAdapter, FakeClock
from tests.quiz.test_channel_quiz import CHANNEL, click, content_dir, posted

__all__ = ["content_dir"]  # the fixture: one item with quick checks, and python-gil

MEMBERS = [User("test", f"m{i}", f"member {i}") for i in range(6)]


async def test_members_who_answered_the_daily_quiz_are_shown_the_other_question(
    loaded_database: Database, settings: Settings, clock: FakeClock
) -> None:
    adapter = FakeAdapter()
    async with posted(loaded_database, settings, clock, adapter) as app:
        (post,) = adapter.sent
        assert any(a.kind is ActionKind.QUIZ for a in post.reply.actions)
        shown = []
        for member in MEMBERS:
            await click(app, post.reply, 0, member)
            reply = await app.core.handle_line("/question", user=member, channel=CHANNEL,
                                               locale=Locale.EN)  # fmt: skip
            shown.append(reply.title)
        assert shown == ["GIL 是什么？"] * len(MEMBERS)
