"""A daily post's quick check as a channel meets it, through the app that ships (open_app,
the scheduler, the core), on a fake platform and a fake clock: members answer once each,
privately told right or wrong and why; the post's tally is edited in place at most once per
interval; the answer in the thread reveals the right option and the channel's result; the
quiz closes then; a button from before a restart still works."""

from __future__ import annotations

import io
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from adapters.console.adapter import ConsoleAdapter
from bot.app import App, open_app
from bot.quiz import QuizPost, check_for, shown_for
from bot.schedule.model import AnswerTiming, Schedule, parse_days
from bot.schedule.times import parse_local_time, parse_zone
from bot.settings import Settings
from bot.store.db import Database
from bot.store.schedules import ScheduleStore
from bot.types import ActionKind, ChannelRef, Invocation, Locale, Reply, Tone, User
from tests.content.test_new_format import write_item
from tests.fakes import FakeAdapter, FakeClock
from tests.quiz.shown import carried, letters, right_position

CHANNEL = ChannelRef("test", "c1", "guild")
ALICE, BOB, CAROL = (User("test", f"u{i}", name) for i, name in enumerate(("alice", "bob",
                                                                          "carol")))  # fmt: skip
POSTED = datetime(2026, 3, 2, 1, 0, tzinfo=UTC)  # 09:00 in Shanghai


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    """One explained question with two quick checks, and the item it links to."""
    root = tmp_path / "content"
    write_item(root)
    return root


@asynccontextmanager
async def running(settings: Settings, clock: FakeClock,
                  adapter: FakeAdapter | ConsoleAdapter) -> AsyncIterator[App]:  # fmt: skip
    async with open_app(settings, clock=clock, rng=random.Random(7), grading=False) as app:
        await app.platforms.attach("test", adapter)
        yield app


@asynccontextmanager
async def posted(db: Database, settings: Settings, clock: FakeClock,
                 adapter: FakeAdapter | ConsoleAdapter) -> AsyncIterator[App]:  # fmt: skip
    """The app, with a daily schedule in CHANNEL whose first question has just been posted
    to `adapter` at POSTED."""
    await daily(db)
    clock.set(POSTED - timedelta(minutes=1))
    async with running(settings, clock, adapter) as app:
        await app.scheduler.start()
        clock.set(POSTED)
        await app.scheduler.tick()
        yield app


async def daily(db: Database) -> Schedule:
    draft = Schedule(id=0, channel=CHANNEL, post_at=parse_local_time("09:00"),
                     zone=parse_zone("Asia/Shanghai"), days=parse_days("daily"),
                     coding_days=parse_days("none"), answer=AnswerTiming.parse("+8h"),
                     topic="inference")  # fmt: skip
    return await ScheduleStore(db).save(draft)


async def click(app: App, reply: Reply, option: int, who: User,
                where: ChannelRef = CHANNEL) -> Reply:  # fmt: skip
    buttons = [a for a in reply.actions if a.kind is ActionKind.QUIZ]
    command, options = buttons[option].invocation()
    return await app.core.handle(Invocation(command, options, who, where, Locale.EN))


async def test_a_week_day_of_a_channel_quiz(loaded_database: Database, settings: Settings,
                                            clock: FakeClock) -> None:  # fmt: skip
    adapter = FakeAdapter()
    async with posted(loaded_database, settings, clock, adapter) as app:
        schedule = await ScheduleStore(app.db).get(1)
        assert schedule is not None
        (post,) = adapter.sent
        buttons = [a for a in post.reply.actions if a.kind is ActionKind.QUIZ]
        assert [b.label for b in buttons] == ["A", "B", "C", "D"]
        assert not any(a.kind is ActionKind.REVEAL_ANSWER for a in post.reply.actions)
        question = await app.store.get("kv-cache-size")
        assert question is not None
        check = check_for(question, POSTED.astimezone(schedule.zone).date().isoformat())
        assert check is not None and check.question.en in post.reply.body
        right = right_position(post.reply.body, check)  # by the letter shown, not the file
        assert right != 0  # this post does not show the right option first
        wrong = 0  # A: pressing it, as if the right answer were always first, is wrong here
        assert [carried(b) for b in buttons] == [0, 1, 2, 3]  # each the place it is shown at
        assert right != check.correct_index()  # so the right one's is not its index in the file
        key = buttons[0].invocation()[1]["post"]
        drawn = shown_for(question, QuizPost.parse(key) or QuizPost(0, ""))
        assert drawn is not None and drawn.check is check
        right_choice = drawn.order[right]  # read back through the post's order
        assert check.options[right_choice].correct

        mine = await click(app, post.reply, right, ALICE)
        assert mine.ephemeral and mine.title is not None and mine.title.startswith("✅ Right")
        assert mine.title.startswith(f"✅ Right: {'ABCD'[right]}.")  # the letter shown
        assert check.options[right_choice].why.en in mine.body
        tallies = app.tallies
        assert tallies is not None
        await tallies.settled()
        assert len(adapter.edits) == 1  # the first answer edits at once
        edited_ref, edited = adapter.edits[0]
        assert edited_ref == post.ref and "1 answered so far, 1 right." in edited.body
        assert letters(edited.body) == letters(post.reply.body)  # the edit keeps the order

        again = await click(app, post.reply, wrong, ALICE)
        assert "answered this one already (" in again.body and again.ephemeral
        assert f"already ({'ABCD'[right]})" in again.body  # her first answer, as shown
        theirs = await click(app, post.reply, wrong, BOB)
        assert theirs.title is not None and theirs.title.startswith("❌ Not this one")
        assert theirs.title.startswith(f"❌ Not this one: {'ABCD'[wrong]}.")
        wrong_choice = drawn.order[wrong]
        assert not check.options[wrong_choice].correct
        assert check.options[wrong_choice].why.en in theirs.body and "revealed" in theirs.body
        elsewhere = await click(app, post.reply, right, CAROL, ChannelRef("test", "other"))
        assert elsewhere.tone is Tone.USER_ERROR and "another channel" in elsewhere.body
        assert len(adapter.edits) == 1  # Bob's edit waits for the interval
        clock.advance(timedelta(seconds=5))
        await tallies.settled()
        assert len(adapter.edits) == 2
        assert "2 answered so far, 1 right." in adapter.edits[1][1].body

        clock.set(POSTED + timedelta(hours=8))
        await app.scheduler.tick()
        answer = adapter.sent[-1]
        assert answer.thread_of == post.ref
        revealed = next(f for f in answer.reply.fields if f.name == "Quick check:")
        assert f"✅ **{'ABCD'[right]}.** {check.options[right_choice].text.en}" in revealed.value
        assert "2 answered so far, 1 right." in revealed.value
        late = await click(app, post.reply, right, CAROL)
        assert "closed" in late.body and late.ephemeral

    async with running(settings, clock, FakeAdapter()) as app:  # a restart: old buttons work
        assert "closed" in (await click(app, post.reply, right, CAROL)).body
        broken = await app.core.handle(Invocation("quiz", {"post": "x", "choice": "1"}, CAROL,
                                                  CHANNEL))  # fmt: skip
        assert broken.tone is Tone.USER_ERROR and broken.ephemeral
        for bad in ("4", "9", "-1", "B", "1.0"):  # no such position, or not one: refused as before
            refused = await app.core.handle(Invocation("quiz", {"post": key, "choice": bad},
                                                       CAROL, CHANNEL))  # fmt: skip
            assert refused.tone is Tone.USER_ERROR and refused.ephemeral
            assert "no longer known here" in refused.body


async def test_answers_cannot_be_inflated_by_replays(loaded_database: Database,
                                                     settings: Settings,
                                                     clock: FakeClock) -> None:  # fmt: skip
    adapter = FakeAdapter()
    async with posted(loaded_database, settings, clock, adapter) as app:
        (post,) = adapter.sent
        for _ in range(5):
            await click(app, post.reply, 0, ALICE)
        for option in range(4):
            await click(app, post.reply, option, BOB)
        first = next(a for a in post.reply.actions if a.kind is ActionKind.QUIZ)
        quiz = QuizPost.parse(first.value.rpartition(":")[0])
        assert quiz is not None
        tally = await app.quizzes.tally(quiz.schedule_id, quiz.slot)
        assert tally.answered == 2 and tally.right in (0, 2)  # both first chose option A


async def test_an_answer_nobody_quizzed_says_so(
    loaded_database: Database, settings: Settings, clock: FakeClock
) -> None:
    adapter = FakeAdapter()
    async with posted(loaded_database, settings, clock, adapter) as app:
        clock.set(POSTED + timedelta(hours=8))
        await app.scheduler.tick()
        revealed = next(f for f in adapter.sent[-1].reply.fields if f.name == "Quick check:")
        assert revealed.value.endswith("Nobody in the channel answered this one.")
        assert "Pick an option" not in revealed.value


async def test_the_console_reprints_the_post_with_its_tally(
    loaded_database: Database, settings: Settings, clock: FakeClock
) -> None:
    out = io.StringIO()
    console = ConsoleAdapter(None, io.StringIO(""), out, locale=Locale.EN)  # type: ignore[arg-type]
    # The console stands in for the channel.
    async with posted(loaded_database, settings, clock, console) as app:
        post = out.getvalue()
        pressed = post.split("[1] A  → /quiz ", 1)[1].split("\n", 1)[0]  # what pressing 1 runs
        options = dict(word.split(":", 1) for word in pressed.split())
        reply = await app.core.handle(Invocation("quiz", options, ALICE, CHANNEL))
        assert reply.ephemeral and reply.title is not None
        await app.tallies.settled()
        assert "↺ #1 updated" in out.getvalue() and "1 answered so far" in out.getvalue()
