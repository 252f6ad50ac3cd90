"""The grading queue on PostgreSQL: real sandbox, real procrastinate, real grader processes.

A bot process (`bot_process`: admission over the database, jobs deferred, verdicts awaited
by LISTEN) and graders: in the test's own loop for the first test, `studybot grader`
subprocesses for the rest, killed with SIGKILL where the test says so.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.app import GraderOptions, open_app, open_grader
from bot.clock import SystemClock
from bot.errors import GradingDelayed, GradingFailed, TooBusy
from bot.grades import Verdict
from bot.grading.grader import Grader
from bot.grading.problems import Problem
from bot.grading.service import Grading
from bot.grading.shared_admission import SharedAdmissionConfig
from bot.i18n import t
from bot.types import ChannelRef, Invocation, Locale, Reply, User
from tests.fakes import REPO, FakeClock
from tests.grading.conftest import reference
from tests.grading.queue_support import (
    Graders,
    bot_process,
    grader,
    queue_settings,
    scalar,
    timeless,
    until,
)
from tests.waiting import PATIENCE

__all__ = ["grader"]  # a fixture of this module too

ALICE, BOB = User("test", "alice", "Alice"), User("test", "bob", "Bob")
WRONG = (REPO / "content/problems/rotate-matrix/wrong/counter-clockwise.py").read_text("utf-8")
WRONG_POW = "def my_pow(x, n):\n    return 0\n"
SPIN = "x = 0\nwhile True:\n    x += 1\n"  # a /run that holds its grader until its CPU limit


@pytest.fixture(scope="session")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The problems' computed tests, shared by every grader of the session (computed once)."""
    return tmp_path_factory.mktemp("queue-cache")


@pytest.fixture
async def graders(postgres_dsn: str, cache: Path) -> AsyncIterator[Graders]:
    running = Graders(postgres_dsn, cache)
    yield running
    await running.stop_all()


@pytest.fixture
async def in_test_grader(postgres_dsn: str, cache: Path) -> AsyncIterator[None]:
    """A grader in this test's loop, built by `open_grader` as `studybot grader` builds it."""
    options = GraderOptions(heartbeat=0.5, stalled_after=5, sweep_every=0.5)  # as FAST
    async with open_grader(queue_settings(postgres_dsn, cache), options=options) as process:
        task = asyncio.create_task(process.run(install_signal_handlers=False))
        yield
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def test_a_queued_submission_gets_the_in_process_grade(
    postgres_dsn: str, cache: Path, in_test_grader: None, grader: Grader,
    problems: dict[str, Problem],
) -> None:  # fmt: skip
    problem = problems["rotate-matrix"]
    async with bot_process(queue_settings(postgres_dsn, cache), SystemClock()) as grading:
        for code in (reference("rotate-matrix"), WRONG):
            queued = await grading.submit(ALICE, Locale.EN, problem, code)
            here = await grader.grade(problem, code)
            assert timeless(queued) == timeless(here)
            assert len(queued.tests) == len(problem.cases) and queued.cpu_ms is not None
            # Each grader judges by the limit it measured, and the verdict says which.
            assert queued.limit_ms is not None and queued.reference_ms is not None
            assert queued.limit_ms >= problem.time_rule.times * queued.reference_ms
        assert queued.verdict is Verdict.WRONG_ANSWER
        ran = await grading.run(ALICE, Locale.EN, "print('hi', 6 * 7)")
        assert ran.output == "hi 42\n"
    states = await scalar(postgres_dsn, "SELECT string_agg(state || ':' || attempts, ',' "
                          "ORDER BY id) FROM submissions")  # fmt: skip
    assert states == "graded:1,graded:1,graded:1"


async def test_the_bot_open_app_builds_on_postgresql_queues_and_the_grader_scores(
    postgres_dsn: str, cache: Path, in_test_grader: None
) -> None:
    """`/submit` through the core of the app `studybot run` builds on PostgreSQL: graded by a
    grader, answered with every test, and scored once by the grader that accepted it."""
    settings, clock = queue_settings(postgres_dsn, cache), FakeClock()
    code = reference("fast-power")
    async with open_app(settings, clock=clock) as app:
        where = ChannelRef("test", "c1", "guild")
        for _ in range(2):  # a second accepted solution scores nothing more
            reply = await app.core.handle(Invocation(
                "submit", {"problem": "fast-power", "code": code}, ALICE, where, Locale.EN
            ))  # fmt: skip
            assert "Accepted" in (reply.title or "") + reply.body, reply
    await until(postgres_dsn, "SELECT count(*) = 1 FROM activity WHERE kind = 'solve'")
    row = await scalar(postgres_dsn, "SELECT user_id || ':' || points || ':' || channel "
                       "FROM activity")  # fmt: skip
    assert row == "alice:20:c1"


async def test_a_submission_behind_untaken_jobs_hears_how_many_then_its_verdict(
    postgres_dsn: str, cache: Path, graders: Graders
) -> None:
    """No grader runs yet: Bob's job waits behind Alice's, and his `/submit` says so through
    the adapter's notice, before the verdict (Alice, behind no one, hears only her verdict).
    Then a grader starts and takes both."""
    heard: dict[str, list[str]] = {"alice": [], "bob": []}
    bob_heard = asyncio.Event()
    where, code = ChannelRef("test", "c1", "guild"), reference("fast-power")
    async with open_app(queue_settings(postgres_dsn, cache), clock=FakeClock()) as app:

        def submit(user: User) -> asyncio.Task[Reply]:
            async def notice(reply: Reply) -> None:
                heard[user.id].append(reply.body)
                if user == BOB:
                    bob_heard.set()

            return asyncio.create_task(app.core.handle(Invocation(
                "submit", {"problem": "fast-power", "code": code}, user, where, Locale.EN,
                notice=notice)))  # fmt: skip

        alice = submit(ALICE)
        await until(postgres_dsn, "SELECT count(*) = 1 FROM procrastinate_jobs")
        bob = submit(BOB)
        await asyncio.wait_for(bob_heard.wait(), PATIENCE)
        await graders.start()
        replies = await asyncio.gather(alice, bob)
    assert heard == {"alice": [], "bob": [t(Locale.EN, "grading.queued", ahead=1)]}
    assert all("Accepted" in (r.title or "") for r in replies), replies


async def test_two_graders_take_a_burst_with_the_limits_held_across_processes(
    postgres_dsn: str, cache: Path, graders: Graders
) -> None:
    """50 members, 4 submissions each (200), through two bot processes and two graders.
    Each member sends two at once (one is refused: one at a time), then one after the
    verdict (admitted: the second of the minute), then one more (refused: 2 a minute)."""
    for _ in range(2):
        await graders.start()
    clock = FakeClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    settings = queue_settings(postgres_dsn, cache)
    refused: Counter[str] = Counter()
    verdicts: Counter[Verdict] = Counter()
    limits = SharedAdmissionConfig(per_minute=2)
    async with (
        bot_process(settings, clock, limits) as one,
        bot_process(settings, clock, limits) as two,
    ):
        problem = one.problem("fast-power")  # a quick problem: the burst is about the queue
        assert problem is not None

        async def send(grading: Grading, member: User, code: str) -> None:
            try:
                verdicts[(await grading.submit(member, Locale.EN, problem, code)).verdict] += 1
            except TooBusy as exc:
                refused["rate" if "a minute" in str(exc) else "one at a time"] += 1

        async def member(n: int) -> None:
            who, code = User("test", f"m{n}", f"M{n}"), reference("fast-power")
            await asyncio.gather(send(one, who, code), send(two, who, WRONG_POW))  # both at once
            await send(two if n % 2 else one, who, code)
            await send(one if n % 2 else two, who, code)

        await asyncio.gather(*(member(n) for n in range(50)))
    assert refused == {"one at a time": 50, "rate": 50}
    assert sum(verdicts.values()) == 100
    assert verdicts[Verdict.ACCEPTED] >= 50  # the second of each member's is right
    graded = await scalar(postgres_dsn, "SELECT count(*) FROM submissions WHERE state = "
                          "'graded' AND attempts = 1 AND grade IS NOT NULL")  # fmt: skip
    # Each job is acknowledged just after its verdict is announced.
    await until(postgres_dsn, "SELECT count(*) = 100 FROM procrastinate_jobs "
                "WHERE status = 'succeeded'")  # fmt: skip
    jobs = await scalar(postgres_dsn, "SELECT count(*) FROM procrastinate_jobs WHERE "
                        "status = 'succeeded' AND attempts = 1")  # fmt: skip
    assert (graded, jobs) == (100, 100)  # every admitted one graded once, by one job
    # Each member's first accepted solution scored, once, by whichever grader accepted it.
    solved = "SELECT count(DISTINCT user_id) FROM submissions WHERE verdict = 'accepted'"
    await until(postgres_dsn, f"SELECT count(*) = ({solved}) FROM activity WHERE kind = 'solve'")
    assert await scalar(postgres_dsn, "SELECT count(DISTINCT user_id) FROM activity") == 50


async def _submitted(grading: Grading, code: str) -> asyncio.Task[object]:
    return asyncio.create_task(grading.run(ALICE, Locale.EN, code))


async def test_a_grader_killed_mid_job_still_yields_one_verdict(
    postgres_dsn: str, cache: Path, graders: Graders
) -> None:
    first = await graders.start()
    async with bot_process(queue_settings(postgres_dsn, cache), SystemClock()) as grading:
        waiting = await _submitted(grading, SPIN)
        await until(postgres_dsn, "SELECT count(*) = 1 FROM submissions WHERE attempts = 1")
        await graders.kill(first)  # mid-job: its sandbox is running the code
        await graders.start()  # the other grader: it retries the job once the lease lapses
        grade = await asyncio.wait_for(waiting, 60)
    assert grade.verdict is Verdict.TIME_LIMIT_EXCEEDED
    row = await scalar(postgres_dsn, "SELECT state || ':' || attempts FROM submissions")
    assert row == "graded:2"
    # The job is acknowledged just after the verdict is announced.
    await until(postgres_dsn, "SELECT status = 'succeeded' FROM procrastinate_jobs")
    job = await scalar(postgres_dsn, "SELECT status || ':' || attempts FROM procrastinate_jobs")
    assert job == "succeeded:2"  # taken twice: retried once, after its grader's lease lapsed


async def test_a_job_that_kills_its_grader_twice_is_marked_failed(
    postgres_dsn: str, cache: Path, graders: Graders
) -> None:
    async with bot_process(queue_settings(postgres_dsn, cache), SystemClock()) as grading:
        waiting = await _submitted(grading, SPIN)
        for attempt in (1, 2):
            taker = await graders.start()
            await until(postgres_dsn, "SELECT count(*) = 1 FROM submissions WHERE attempts = %s",
                        (attempt,))  # fmt: skip
            await graders.kill(taker)
        assert not waiting.done()
        await graders.start()  # finds it stalled, takes it a third time: given up on
        with pytest.raises(GradingFailed, match="Grading failed"):
            await asyncio.wait_for(waiting, 60)
    row = await scalar(postgres_dsn, "SELECT state || ':' || attempts FROM submissions")
    assert row == "failed:3"


async def test_the_queue_bound_holds_across_processes_and_says_how_many_wait(
    postgres_dsn: str, cache: Path
) -> None:
    """No grader runs: two members' submissions wait, sent through two bot processes; a
    third, through either, is refused, told how many wait across the deployment."""
    settings, limits = queue_settings(postgres_dsn, cache), SharedAdmissionConfig(queue_size=2)
    async with (
        bot_process(settings, SystemClock(), limits) as one,
        bot_process(settings, SystemClock(), limits) as two,
    ):
        problem = one.problem("fast-power")
        assert problem is not None
        waiting = [
            asyncio.create_task(grading.submit(User("test", f"w{i}", "W"), Locale.EN, problem,
                                               WRONG_POW))
            for i, grading in enumerate((one, two))
        ]  # fmt: skip
        await until(postgres_dsn, "SELECT count(*) = 2 FROM submissions")
        for grading in (one, two):
            with pytest.raises(TooBusy, match="2 submissions ahead of you"):
                await grading.submit(User("test", "late", "L"), Locale.EN, problem, WRONG_POW)
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)


async def test_with_no_grader_the_member_hears_so_and_the_submission_waits(
    postgres_dsn: str, cache: Path
) -> None:
    settings = queue_settings(postgres_dsn, cache)
    async with bot_process(settings, SystemClock(), patience=0.5) as grading:
        with pytest.raises(GradingDelayed, match="waits in the queue"):
            await grading.run(ALICE, Locale.EN, "print(1)")
    assert await scalar(postgres_dsn, "SELECT state FROM submissions") == "queued"
    assert await scalar(postgres_dsn, "SELECT status FROM procrastinate_jobs") == "todo"
