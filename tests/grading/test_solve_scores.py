"""Solutions score through the app that ships, a real sandbox grading them: an accepted
solution in a coding day's channel or thread before the answer is that day's right answer
(more points, counted under the answer post), anywhere else only a member's first accepted
solution of a problem scores; a hint taken first marks the solve; nothing scores twice."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import App, open_app
from bot.learning import points
from bot.routes import problem_of
from bot.schedule.model import AnswerTiming, Schedule, parse_days
from bot.schedule.times import parse_local_time, parse_zone
from bot.settings import Settings
from bot.store.schedules import ScheduleStore
from bot.store.submissions import SubmissionStore
from bot.types import ChannelRef, Locale, Reply, User
from tests.fakes import REPO, FakeAdapter, FakeClock
from tests.grading.conftest import reference

CHANNEL = ChannelRef("test", "c1", "guild")
ALICE, BOB, CAROL, DAN = (User("test", f"u{i}", n) for i, n in enumerate(("alice", "bob", "carol",
                                                                          "dan")))  # fmt: skip
POSTED = datetime(2026, 3, 4, 1, 0, tzinfo=UTC)  # Wednesday 09:00 in Shanghai


@pytest.fixture
async def app(tmp_path: Path, clock: FakeClock) -> AsyncIterator[App]:
    settings = Settings.from_mapping({"STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3"),
                                      "STUDYBOT_CONTENT_DIR": str(REPO / "content")})  # fmt: skip
    clock.set(POSTED - timedelta(minutes=1))
    async with open_app(settings, clock=clock) as opened:
        await opened.platforms.attach("test", FakeAdapter())
        yield opened


async def say(app: App, line: str, who: User, where: ChannelRef = CHANNEL) -> Reply:
    return await app.core.handle_line(line, user=who, channel=where, locale=Locale.EN)


async def solve(app: App, problem: str, who: User, where: ChannelRef = CHANNEL) -> Reply:
    return await say(app, f"/submit {problem}\n```python\n{reference(problem)}```", who, where)


async def coding_day(app: App, clock: FakeClock, adapter: FakeAdapter,
                     sent: datetime = POSTED) -> tuple[str, str]:  # fmt: skip
    """A coding problem due in CHANNEL at POSTED, sent at `sent` (later: the bot was down at
    POSTED): (its id, the post's message id)."""
    draft = Schedule(id=0, channel=CHANNEL, post_at=parse_local_time("09:00"),
                     zone=parse_zone("Asia/Shanghai"), days=parse_days("none"),
                     coding_days=parse_days("daily"), answer=AnswerTiming.parse("+8h"))  # fmt: skip
    saved = await ScheduleStore(app.db).save(draft)
    await app.scheduler.schedule_changed(saved.id)
    clock.set(sent)
    await app.scheduler.tick()
    (post,) = adapter.sent
    problem = problem_of(post.reply.actions)
    assert problem is not None
    return problem, post.ref.message_id


async def acts(app: App) -> list[tuple[object, ...]]:
    rows = await app.db.fetch_all("SELECT user_id, channel, points, hinted, dedupe "
                           "FROM activity ORDER BY id")  # fmt: skip
    return [tuple(r) for r in rows]


async def test_solutions_on_a_coding_day_and_after_it(app: App, clock: FakeClock) -> None:
    adapter = app.platforms.get("test")
    assert isinstance(adapter, FakeAdapter)
    problem, message = await coding_day(app, clock, adapter)
    await say(app, f"/hint {problem}", ALICE)
    clock.advance(timedelta(minutes=30))
    assert "Accepted" in ((await solve(app, problem, ALICE)).title or "")
    await solve(app, problem, ALICE)  # a resubmission scores nothing
    clock.advance(timedelta(hours=2))
    await solve(app, problem, BOB, ChannelRef("test", message, "guild"))  # in the post's thread
    wrong = await say(app, f"/submit {problem} def nothing():\n    return 1", CAROL)
    assert "Accepted" not in (wrong.title or "")
    daily = f"daily:1:{POSTED.date().isoformat()}:test:"
    assert await acts(app) == [("u0", "c1", 40, 1, daily + "u0"), ("u1", "c1", 36, 0, daily + "u1")]

    clock.set(POSTED + timedelta(hours=8))
    await app.scheduler.tick()
    answer = adapter.sent[-1].reply
    early = {f.name: f.value for f in answer.fields}["Solved before the answer"]
    assert early == "2 solved it before the answer."

    await solve(app, problem, DAN)  # the day is over: a solve like any other
    await solve(app, problem, DAN, ChannelRef("test", "elsewhere", "guild"))
    await solve(app, problem, ALICE)  # solved already, on the day
    assert (await acts(app))[2:] == [("u3", "c1", 20, 0, f"solve:test:u3:{problem}")]
    stored = await app.db.fetch_all("SELECT DISTINCT workspace, channel FROM submissions")
    assert {tuple(r) for r in stored} == {("guild", "c1"), ("guild", message),
                                          ("guild", "elsewhere")}  # fmt: skip

    board = await say(app, f"/leaderboard problem:{problem}", CAROL)
    assert "3 of 4 who tried solved it; 3 on the first try (75%)." in board.body
    assert re.search(
        r"Fastest: \w+, at \d+\.\d\d× the reference solution's CPU time\.", board.body
    )  # comparable across graders, as milliseconds are not
    lines = [line for line in board.body.splitlines() if line[:2] in ("1.", "2.", "3.")]
    assert lines[0].startswith("1. alice · first try · 💡 took a hint before solving")
    assert lines[1] == "2. bob · first try" and lines[2] == "3. dan · first try"


async def test_a_solution_left_ungraded_by_a_crash_scores_when_recovery_grades_it(
    tmp_path: Path, clock: FakeClock
) -> None:
    settings = Settings.from_mapping({"STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3"),
                                      "STUDYBOT_CONTENT_DIR": str(REPO / "content")})  # fmt: skip
    async with open_app(settings, clock=clock, grading=False) as first:
        left = SubmissionStore(first.db)
        await left.add(ALICE, "fast-power", reference("fast-power"), clock.now(), CHANNEL)
        await left.add(BOB, "fast-power", "def my_pow(x, n): return 0", clock.now())  # no channel
    async with open_app(settings, clock=clock) as second:  # the restart grades both
        assert second.grading is not None
        assert (await second.grading.recovered()).graded == 2
        rows = await second.db.fetch_all("SELECT user_id, kind, points, channel FROM activity")
    assert [tuple(r) for r in rows] == [("u0", "solve", 20, "c1")]


async def test_the_coding_bonus_counts_from_when_a_late_post_went_out(
    app: App, clock: FakeClock
) -> None:
    """Sent 52 minutes late (within the grace period), solved 10 minutes after it arrived:
    a first-hour solve."""
    adapter = app.platforms.get("test")
    assert isinstance(adapter, FakeAdapter)
    problem, _ = await coding_day(app, clock, adapter, sent=POSTED + timedelta(minutes=52))
    clock.set(POSTED + timedelta(minutes=62))
    assert "Accepted" in ((await solve(app, problem, ALICE)).title or "")
    ((_, _, scored, _, _),) = await acts(app)
    assert scored == points.DAILY_SOLVE + points.DAILY_SOLVE_EARLY
