"""A daily quiz post says how often its question was asked, and keeps saying it when its
tally is edited in place (the bot as `open_app` builds it, a fake platform and clock)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import Settings
from bot.store.db import Database
from bot.types import Field
from tests.content.test_new_format import ITEM, write_item
from tests.fakes import FakeAdapter, FakeClock
from tests.quiz.test_channel_quiz import ALICE, click, posted

REPORTS = """sources:
  - {document: a.txt, title: 字节跳动 一面, company: 字节跳动, round: 一面}
  - {document: b.txt, title: 面经合集}
"""
ASKED = Field("Frequency", "Asked in 2 reports · ByteDance (first round)", False)


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    """The quiz item of tests/quiz/test_channel_quiz.py, cited by two reports."""
    root = tmp_path / "content"
    write_item(root, ITEM.replace("source: original\n", REPORTS))
    return root


async def test_the_post_and_its_tally_edits_carry_the_asked_line(
    loaded_database: Database, settings: Settings, clock: FakeClock
) -> None:
    adapter = FakeAdapter()
    async with posted(loaded_database, settings, clock, adapter) as app:
        (post,) = adapter.sent
        assert ASKED in post.reply.fields
        await click(app, post.reply, 0, ALICE)
        assert app.tallies is not None
        await app.tallies.settled()
        (_, edited) = adapter.edits[0]
        assert "1 answered so far" in edited.body and ASKED in edited.fields
