"""`/submit`, `/run` and `/me` through the core, with a real sandbox and a real database."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
import pytest_asyncio

from bot.app import open_app
from bot.commands.context import Context
from bot.core import Studybot
from bot.grades import RawRun
from bot.grading.admission import Admission
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import Problem
from bot.grading.service import Grading, Recovery
from bot.learning.ledger import Ledger
from bot.learning.scores import Scores
from bot.review.reviews import Reviews
from bot.scheduler import Scheduler
from bot.settings import Settings
from bot.store.activity import ActivityStore
from bot.store.boards import BoardStore
from bot.store.cards import CardStore
from bot.store.database import fetch_all, open_database
from bot.store.db import SqliteDatabase
from bot.store.members import MemberData
from bot.store.preferences import Preferences
from bot.store.progress import ProgressStore
from bot.store.questions import QuestionStore
from bot.store.quizzes import QuizStore
from bot.store.schedules import ScheduleStore
from bot.store.scores import ScoreStore
from bot.store.seen import SeenStore
from bot.store.submissions import SubmissionStore
from bot.types import ActionKind, ChannelRef, Locale, Reply, User
from tests.fakes import REPO, FakeClock
from tests.grading.busy import busy
from tests.grading.conftest import reference
from tests.waiting import PATIENCE

ALICE = User("test", "alice", "Alice")
HERE = ChannelRef("test", "general")


class GatedExecutor:
    """The real sandbox behind a gate the test opens: a boundary fake, not a mock."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox, self.gate, self.entered = sandbox, asyncio.Event(), asyncio.Event()

    async def run(self, job: dict[str, Any], deadline: float) -> RawRun:
        self.entered.set()
        await self.gate.wait()
        return await self.sandbox.run(job, deadline)


@pytest_asyncio.fixture
async def sandbox() -> AsyncIterator[Sandbox]:
    box = Sandbox(warm=1)
    await box.start()
    yield box
    await box.close()


@pytest.fixture
def executor(sandbox: Sandbox) -> GatedExecutor:
    gated = GatedExecutor(sandbox)
    gated.gate.set()  # open unless a test closes it
    return gated


@pytest.fixture
def grading(
    loaded_db: aiosqlite.Connection, executor: GatedExecutor,
    problems: dict[str, Problem], clock: FakeClock,
) -> Grading:  # fmt: skip
    grader = Grader(executor, problems)
    return Grading(grader, Admission(clock), SubmissionStore(SqliteDatabase(loaded_db)), clock)


@pytest.fixture
def bot(loaded_db: aiosqlite.Connection, clock: FakeClock, scheduler: Scheduler,
        grading: Grading) -> Studybot:  # fmt: skip
    database = SqliteDatabase(loaded_db)
    prefs, rng = Preferences(database), random.Random(1)
    reviews = Reviews(CardStore(database), prefs, clock, rng)
    ledger = Ledger(ActivityStore(database), prefs, ScheduleStore(database))
    scores = Scores(ledger, ScoreStore(database), BoardStore(database))
    context = Context(QuestionStore(database), clock, rng,
                      ScheduleStore(database), scheduler, QuizStore(database),
                      MemberData(database), prefs, ledger, reviews, SeenStore(database),
                      ProgressStore(database, SubmissionStore(database)), scores,
                      grading=grading)  # fmt: skip
    return Studybot(context)


async def say(bot: Studybot, line: str, locale: Locale = Locale.EN) -> Reply:
    return await bot.handle_line(line, user=ALICE, channel=HERE, locale=locale)


async def test_submit_a_fenced_solution_and_see_it_on_the_record(bot: Studybot) -> None:
    reply = await say(bot, f"/submit fast-power\n```python\n{reference('fast-power')}```")
    assert reply.title is not None and reply.title.startswith("✅ Accepted: ")
    assert "45/45 tests passed." in reply.body
    assert {f.name for f in reply.fields} == {"CPU time", "Peak memory"}
    cpu = {f.name: f.value for f in reply.fields}["CPU time"]  # and the limit it was judged by
    assert re.fullmatch(r"\d+ ms of a \d+ ms limit \(\d+× the reference's \d+ ms on this "
                        r"grader\)", cpu), cpu  # fmt: skip
    await say(bot, "/run print(1)")  # a snippet, counted apart from solutions
    me = await say(bot, "/me")
    assert me.ephemeral
    assert {f.name: f.value for f in me.fields}["Solved"] == "`fast-power`"
    sent = {f.name: f.value for f in me.fields}["Submissions"]
    assert sent == "1 solution(s) · 1 /run snippet(s)"  # the /run above counts apart
    explained = await say(bot, "/answer fast-power")
    assert explained.footer is not None and "solved so far by: 1" in explained.footer


async def test_a_notice_that_cannot_be_shown_costs_the_verdict_nothing(
    bot: Studybot, grading: Grading, caplog: pytest.LogCaptureFixture
) -> None:
    tried = asyncio.Event()

    async def broken(reply: Reply) -> None:
        tried.set()
        raise ConnectionError("the platform went away")

    line = f"/submit fast-power\n```python\n{reference('fast-power')}```"
    async with busy(grading):  # every slot taken and one waiting: this one is told its place
        sent = asyncio.create_task(bot.handle_line(line, user=ALICE, channel=HERE,
                                                   locale=Locale.EN, notice=broken))  # fmt: skip
        await asyncio.wait_for(tried.wait(), PATIENCE)
    reply = await sent
    assert reply.title is not None and reply.title.startswith("✅ Accepted: ")
    assert "could not show a place in the queue" in caplog.text


async def test_a_verdict_in_chinese(bot: Studybot) -> None:
    reply = await say(bot, "/submit fast-power def my_pow(x, n):\n    return x ** n", Locale.ZH)
    assert reply.title is not None and reply.title.startswith("❌ 违反题目规则")


async def test_the_submission_is_stored_before_grading_starts(
    bot: Studybot, executor: GatedExecutor, loaded_db: aiosqlite.Connection
) -> None:
    executor.gate.clear()
    task = asyncio.create_task(say(bot, f"/submit fast-power {reference('fast-power')}"))
    await executor.entered.wait()
    rows = await fetch_all(loaded_db, "SELECT user_id, problem_id, state, code FROM submissions")
    assert [tuple(r)[:3] for r in rows] == [("alice", "fast-power", "queued")]
    assert "def my_pow" in rows[0][3]
    busy = await say(bot, "/run print(1)")  # one job at a time, told at once
    assert busy.ephemeral and "already have a submission" in busy.body
    executor.gate.set()
    assert "Accepted" in ((await task).title or "")
    rows = await fetch_all(loaded_db, "SELECT state, verdict, passed, total FROM submissions")
    assert [tuple(r) for r in rows] == [("graded", "accepted", 45, 45)]


async def test_unfinished_submissions_are_graded_again_at_start(
    grading: Grading, clock: FakeClock, loaded_db: aiosqlite.Connection
) -> None:
    left = await grading.submissions.add(ALICE, "rotate-matrix", reference("rotate-matrix"),
                                         clock.now())  # fmt: skip
    gone = await grading.submissions.add(ALICE, "retired-problem", "x = 1", clock.now())
    assert await grading.recover() == Recovery(graded=1, interrupted=1)
    assert await grading.submissions.verdict(left) == "accepted"
    rows = await fetch_all(loaded_db, "SELECT state FROM submissions WHERE id = ?", (gone,))
    assert rows[0][0] == "interrupted"


async def test_run_echoes_output_inert(bot: Studybot) -> None:
    reply = await say(bot, "/run print('@everyone ``` <@123>')")
    assert reply.title == "✅ Run: finished"
    assert "@everyone" not in reply.body and "<@123>" not in reply.body
    assert reply.body.count("```") == 2  # only our own fence, which the output cannot close


async def test_mistakes_get_helpful_replies(bot: Studybot) -> None:
    unknown = await say(bot, "/submit fast-pow def my_pow(x, n): return 1.0")
    assert unknown.ephemeral and "fast-power" in unknown.body and "rotate-matrix" in unknown.body
    empty = await say(bot, "/submit fast-power")
    assert empty.ephemeral and "`code`" in empty.body
    fence_only = await say(bot, "/run ```python\n```")
    assert fence_only.ephemeral and "Paste your code" in fence_only.body


async def test_a_coding_question_offers_to_submit(bot: Studybot) -> None:
    reply = await say(bot, "/question fast-power")
    kinds = [a.kind for a in reply.actions]
    assert kinds == [ActionKind.SUBMIT_SOLUTION, ActionKind.HINT, ActionKind.REVEAL_ANSWER]
    assert reply.actions[0].as_command() == "/submit fast-power"


async def test_the_bot_grades_leftovers_at_start_without_waiting_for_them(
    tmp_path: Path, clock: FakeClock
) -> None:
    settings = Settings.from_mapping({"STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3"),
                                      "STUDYBOT_CONTENT_DIR": str(REPO / "content")})  # fmt: skip
    async with open_database(settings.database) as db:
        left = await SubmissionStore(SqliteDatabase(db)).add(
            ALICE, "fast-power", reference("fast-power"), clock.now()
        )
    async with open_app(settings, clock=clock) as app:
        # Graded by a background task, in real worker processes: wait for it to finish.
        await asyncio.wait_for(app.grading.recovered(), PATIENCE)
        assert await app.grading.submissions.verdict(left) == "accepted"
