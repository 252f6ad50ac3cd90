"""A daily post's quick check reviews the card of each member who answers it: the first
answer only, wrong as Again and right as Good, through the app that ships."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from fsrs import Card, State

from bot.quiz import check_for
from bot.settings import Settings
from bot.store.db import Database
from bot.store.schedules import ScheduleStore
from bot.types import ActionKind, ChannelRef, Invocation, Locale
from tests.content.test_new_format import write_item
from tests.fakes import FakeAdapter, FakeClock
from tests.quiz.shown import carried, right_letter, right_position
from tests.quiz.test_channel_quiz import ALICE, BOB, CHANNEL, POSTED, click, posted


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    write_item(root)
    return root


async def cards(db: Database) -> dict[str, Card]:
    rows = await db.fetch_all("SELECT user_id, card FROM cards WHERE question_id = ?",
                              ("kv-cache-size",))  # fmt: skip
    return {str(r[0]): Card.from_json(r[1]) for r in rows}


async def test_a_quiz_answer_creates_then_updates_the_members_card(
    loaded_database: Database, settings: Settings, clock: FakeClock
) -> None:
    adapter = FakeAdapter()
    async with posted(loaded_database, settings, clock, adapter) as app:
        schedule = await ScheduleStore(app.db).get(1)
        question = await app.store.get("kv-cache-size")
        assert schedule is not None and question is not None
        check = check_for(question, POSTED.astimezone(schedule.zone).date().isoformat())
        assert check is not None
        (post,) = adapter.sent
        right = right_position(post.reply.body, check)  # where the post shows it
        wrong = (right + 1) % 4

        await click(app, post.reply, wrong, ALICE)
        await click(app, post.reply, right, ALICE)  # a second answer reviews nothing
        await click(app, post.reply, right, BOB)
        held = await cards(app.db)
        assert held["u0"].state is State.Learning and held["u0"].due == POSTED + timedelta(days=1)
        assert held["u1"].state is State.Review and held["u1"].due == POSTED + timedelta(days=2)
        rows = await app.db.fetch_all("SELECT user_id, rating, source FROM reviews ORDER BY id")
        assert [tuple(r) for r in rows] == [("u0", 1, "quiz"), ("u1", 3, "quiz")]

        clock.set(POSTED + timedelta(days=1))
        due = await app.core.handle_line("/review", user=ALICE, channel=ChannelRef("test", "dm"),
                                         locale=Locale.EN)  # fmt: skip
        assert due.title is not None and due.title.startswith("Review: ")
        checks = [a for a in due.actions if a.kind is ActionKind.REVIEW_CHECK]
        assert [carried(a) for a in checks] == [0, 1, 2, 3]  # the places shown
        good = checks[right_position(due.body, question.quiz[1])]  # where the prompt shows it
        assert good.label == right_letter(due.body, question.quiz[1])  # lettered as shown
        scored = await app.core.handle(Invocation(*good.invocation(), ALICE, CHANNEL, Locale.EN))
        assert scored.title is not None and scored.title.startswith(f"✅ Right: {good.label}.")
        after = (await cards(app.db))["u0"]
        assert after.card_id == held["u0"].card_id and after.state is State.Review
        assert after.due > clock.now() + timedelta(days=1)
