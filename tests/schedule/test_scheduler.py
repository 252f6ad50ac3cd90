"""The daily loop over a real SQLite ledger, driven by a fake clock: local times across zones,
DST both ways, restarts before, during and after a slot, the grace period, no repeats,
answers in the question's thread, retries and pausing."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from datetime import UTC, datetime, timedelta

import pytest

from bot.errors import DeliveryError
from bot.platforms import Platforms
from bot.schedule.model import AnswerTiming, Schedule, parse_days
from bot.schedule.times import parse_local_time, parse_zone
from bot.scheduler import Scheduler, SchedulerConfig
from bot.store.db import Database
from bot.store.questions import QuestionStore
from bot.store.schedules import ScheduleStore
from bot.types import ChannelRef, MessageRef, Reply
from tests.fakes import FakeAdapter, FakeClock
from tests.waiting import PATIENCE, until


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


async def add(
    db: Database,
    channel: str = "c1",
    at: str = "09:00",
    zone: str = "Asia/Shanghai",
    *,
    days: str = "daily",
    coding: str = "none",
    answer: str = "+8h",
    topic: str | None = None,
) -> Schedule:
    draft = Schedule(
        id=0, channel=ChannelRef("test", channel, "guild"), post_at=parse_local_time(at),
        zone=parse_zone(zone), days=parse_days(days), coding_days=parse_days(coding),
        answer=AnswerTiming.parse(answer), topic=topic,
    )  # fmt: skip
    return await ScheduleStore(db).save(draft)


def make(db: Database, clock: FakeClock, adapter: FakeAdapter) -> Scheduler:
    return Scheduler(
        ScheduleStore(db),
        QuestionStore(db),
        clock,
        Platforms({"test": adapter}),
    )


async def at(scheduler: Scheduler, clock: FakeClock, instant: datetime) -> None:
    clock.set(instant)
    await scheduler.tick()


async def test_each_channel_posts_at_its_own_local_time(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    for channel, zone in [("shanghai", "Asia/Shanghai"), ("new-york", "America/New_York"),
                          ("berlin", "Europe/Berlin")]:  # fmt: skip
        await add(loaded_database, channel, zone=zone, answer="+23h")
    clock.set(utc(2026, 3, 2, 0, 0))
    scheduler = make(loaded_database, clock, adapter)
    await scheduler.start()
    expected = [(utc(2026, 3, 2, 1, 0), "shanghai"), (utc(2026, 3, 2, 8, 0), "berlin"),
                (utc(2026, 3, 2, 14, 0), "new-york")]  # fmt: skip
    for n, (instant, channel) in enumerate(expected):
        assert scheduler.next_due() == instant
        await at(scheduler, clock, instant - timedelta(seconds=1))
        assert len(adapter.sent) == n
        await at(scheduler, clock, instant)
        assert len(adapter.sent) == n + 1
        assert adapter.sent[-1].channel.channel == channel


async def test_a_local_time_in_the_spring_forward_gap_posts_when_the_clocks_jump(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    await add(loaded_database, "gap", at="02:30", zone="America/New_York", answer="+1h")
    clock.set(utc(2026, 3, 7, 12, 0))
    scheduler = make(loaded_database, clock, adapter)
    await scheduler.start()
    assert scheduler.next_due() == utc(2026, 3, 8, 7, 0)  # 03:00 EDT, the first valid instant
    await at(scheduler, clock, utc(2026, 3, 8, 7, 0))
    assert len(adapter.sent) == 1


async def test_a_repeated_local_time_at_fall_back_posts_once(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    await add(loaded_database, "fold", at="01:30", zone="America/New_York", answer="+8h")
    clock.set(utc(2026, 10, 31, 12, 0))
    fold = make(loaded_database, clock, adapter)
    await fold.start()
    await at(fold, clock, utc(2026, 11, 1, 5, 30))  # 01:30 EDT, the first 01:30
    await at(fold, clock, utc(2026, 11, 1, 6, 30))  # 01:30 EST, the repeat: nothing
    posts = [s for s in adapter.sent if s.channel.channel == "fold"]
    assert len(posts) == 1
    assert fold.next_due() == utc(2026, 11, 1, 13, 30)  # its answer, 8 h later


async def test_the_answer_follows_in_the_thread_of_the_question(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    await add(loaded_database, answer="18:00")
    clock.set(utc(2026, 3, 2, 0, 0))
    scheduler = make(loaded_database, clock, adapter)
    await scheduler.start()
    await at(scheduler, clock, utc(2026, 3, 2, 1, 0))
    question = adapter.sent[0]
    assert question.thread_of is None and question.reply.actions
    assert scheduler.next_due() == utc(2026, 3, 2, 10, 0)  # 18:00 in Shanghai
    await at(scheduler, clock, utc(2026, 3, 2, 10, 0))
    answer = adapter.sent[1]
    assert answer.thread_of == question.ref
    assert answer.reply.title is not None and answer.reply.title.startswith("Answer: ")
    assert question.reply.title is not None
    assert answer.reply.title.removeprefix("Answer: ") in question.reply.title


async def run_days(db: Database, days: int, **schedule: str) -> list[str]:
    clock, adapter = FakeClock(utc(2026, 3, 1, 12, 0)), FakeAdapter()
    await add(db, answer="+1h", **schedule)
    scheduler = make(db, clock, adapter)
    await scheduler.start()
    for _ in range(days * 2):  # each day: the question, then its answer
        next_due = scheduler.next_due()
        assert next_due is not None
        await at(scheduler, clock, next_due)
    return [question_id(s.reply) for s in adapter.sent if s.thread_of is None]


def question_id(reply: Reply) -> str:
    return next(f.value.strip("`") for f in reply.fields if f.name == "ID")


async def test_no_question_repeats_until_all_were_asked_and_the_order_is_deterministic(
    loaded_database: Database, tmp_path_factory: pytest.TempPathFactory
) -> None:
    asked = await run_days(loaded_database, 6)
    assert len(asked) == 6
    assert set(asked[:3]) == set(asked[3:]) == {"python-gil", "ring-allreduce", "gpu-memory"}

    from bot.content.loader import load_bank
    from bot.store.database import open_database
    from bot.store.db import SqliteDatabase
    from tests.fakes import write_question

    root = tmp_path_factory.mktemp("again") / "content"
    for qid, title in [("python-gil", "Python全局解释器锁（GIL）是什么？"),
                       ("ring-allreduce", "AllReduce通信开销怎么计算？"),
                       ("gpu-memory", "显存不够怎么办？")]:  # fmt: skip
        write_question(root, qid, title, "解析")
    async with open_database(root.parent / "again.sqlite3") as connection:
        other = SqliteDatabase(connection)
        await load_bank(other, root)
        assert await run_days(other, 6) == asked


async def test_coding_days_post_a_coding_problem(loaded_database: Database) -> None:
    asked = await run_days(loaded_database, 7, coding="wed")  # 2026-03-02 is a Monday
    assert [i for i, qid in enumerate(asked) if qid == "fast-power"] == [2]


async def test_a_restart_before_the_slot_posts_it_once(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    await add(loaded_database)
    clock.set(utc(2026, 3, 2, 0, 0))
    first = make(loaded_database, clock, adapter)
    await first.start()
    clock.set(utc(2026, 3, 2, 0, 59))  # stopped here, a minute before 09:00 in Shanghai
    second = make(loaded_database, clock, adapter)
    await second.start()
    await at(second, clock, utc(2026, 3, 2, 1, 0))
    await at(second, clock, utc(2026, 3, 2, 1, 5))
    assert len(adapter.sent) == 1


async def test_a_restart_after_the_slot_does_not_post_it_again(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    await add(loaded_database)
    clock.set(utc(2026, 3, 2, 0, 0))
    first = make(loaded_database, clock, adapter)
    await first.start()
    await at(first, clock, utc(2026, 3, 2, 1, 0))
    clock.set(utc(2026, 3, 2, 1, 10))  # restarted ten minutes later, inside the grace period
    second = make(loaded_database, clock, adapter)
    await second.start()
    await second.tick()
    assert len(adapter.sent) == 1
    assert second.next_due() == utc(2026, 3, 2, 9, 0)  # only the answer is left today


async def crash_after_the_platform_accepted(
    db: Database, clock: FakeClock, platform: FakeAdapter
) -> None:
    """Post 09:00's question in Shanghai and die before recording the message id."""
    platform.hang_after_accepting = True
    await add(db)
    clock.set(utc(2026, 3, 2, 1, 0))
    first = make(db, clock, platform)
    await first.start()
    crashed = asyncio.create_task(first.tick())
    await asyncio.wait_for(platform.posted.wait(), PATIENCE)
    crashed.cancel()  # the process dies here
    with pytest.raises(asyncio.CancelledError):
        await crashed
    platform.hang_after_accepting = False


async def test_a_crash_after_the_platform_accepted_resends_with_the_same_nonce(
    loaded_database: Database, clock: FakeClock
) -> None:
    """The documented window: the message went out, the reference was never stored."""
    platform = FakeAdapter(dedupe_nonces=True)
    await crash_after_the_platform_accepted(loaded_database, clock, platform)
    clock.set(utc(2026, 3, 2, 1, 3))
    second = make(loaded_database, clock, platform)
    await second.start()
    await second.tick()
    assert len(platform.sent) == 1  # Discord-style dedupe: still one message in the channel
    assert len(platform.attempts) == 2 and platform.attempts[0] == platform.attempts[1]
    await at(second, clock, utc(2026, 3, 2, 9, 0))
    assert platform.sent[-1].thread_of == platform.sent[0].ref  # the answer found its thread


async def test_an_unconfirmed_post_older_than_the_grace_period_is_given_up(
    loaded_database: Database, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    platform = FakeAdapter()
    await crash_after_the_platform_accepted(loaded_database, clock, platform)
    clock.set(utc(2026, 3, 2, 3, 0))  # two hours of downtime
    second = make(loaded_database, clock, platform)
    with caplog.at_level(logging.WARNING):
        await second.start()
        await second.tick()
    assert len(platform.attempts) == 1
    assert "unconfirmed question given up" in caplog.text


@pytest.mark.parametrize(("downtime", "posted_late"), [(30, True), (59, True), (61, False)])
async def test_missed_slots_within_the_grace_period_are_posted_late_older_ones_skipped(
    loaded_database: Database,
    clock: FakeClock,
    adapter: FakeAdapter,
    caplog: pytest.LogCaptureFixture,
    downtime: int,
    posted_late: bool,
) -> None:
    await add(loaded_database)
    clock.set(utc(2026, 3, 1, 0, 0))
    first = make(loaded_database, clock, adapter)
    await first.start()
    await at(first, clock, utc(2026, 3, 1, 1, 0))  # yesterday's post, so there is a history
    restart = utc(2026, 3, 2, 1, 0) + timedelta(minutes=downtime)
    clock.set(restart)
    second = make(loaded_database, clock, adapter)
    with caplog.at_level(logging.WARNING):
        await second.start()
        await second.tick()
    questions = [s for s in adapter.sent if s.thread_of is None]
    assert len(questions) == (2 if posted_late else 1)
    assert ("skipped slot" in caplog.text) is not posted_late
    assert [s for s in adapter.sent if s.thread_of is not None]  # yesterday's answer, overdue


async def test_a_refused_post_is_retried_with_backoff_then_delivered(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    adapter.failures = [DeliveryError("rate limited"), DeliveryError("rate limited")]
    await add(loaded_database)
    clock.set(utc(2026, 3, 2, 1, 0))
    scheduler = make(loaded_database, clock, adapter)
    await scheduler.start()
    await scheduler.tick()
    assert scheduler.next_due() == utc(2026, 3, 2, 1, 0, 30)
    await at(scheduler, clock, utc(2026, 3, 2, 1, 0, 30))
    assert scheduler.next_due() == utc(2026, 3, 2, 1, 2, 30)
    await at(scheduler, clock, utc(2026, 3, 2, 1, 2, 30))
    assert len(adapter.sent) == 1 and len(adapter.attempts) == 3
    assert len(set(adapter.attempts)) == 1  # every attempt carries the same nonce


async def test_a_permanent_failure_pauses_the_schedule_and_says_why(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    adapter.failures = [DeliveryError("channel_not_found", permanent=True)]
    schedule = await add(loaded_database)
    clock.set(utc(2026, 3, 2, 1, 0))
    scheduler = make(loaded_database, clock, adapter)
    await scheduler.start()
    await scheduler.tick()
    paused = await ScheduleStore(loaded_database).get(schedule.id)
    assert paused is not None and paused.paused
    assert paused.pause_reason == "posting failed 1 time(s): channel_not_found"
    await at(scheduler, clock, utc(2026, 3, 3, 1, 0))
    assert adapter.sent == []


async def test_repeated_transient_failures_pause_the_schedule(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    config = SchedulerConfig(retry_delays=(timedelta(seconds=10),))
    adapter.failures = [DeliveryError("timeout"), DeliveryError("timeout")]
    schedule = await add(loaded_database)
    clock.set(utc(2026, 3, 2, 1, 0))
    database = loaded_database
    scheduler = Scheduler(ScheduleStore(database), QuestionStore(database), clock,
                          Platforms({"test": adapter}), config)  # fmt: skip
    await scheduler.start()
    await scheduler.tick()
    await at(scheduler, clock, utc(2026, 3, 2, 1, 0, 10))
    paused = await ScheduleStore(loaded_database).get(schedule.id)
    assert paused is not None and paused.pause_reason == "posting failed 2 time(s): timeout"


async def test_the_loop_sleeps_until_the_earliest_job_and_wakes_on_a_change(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    await add(loaded_database, "late", at="20:00")
    clock.set(utc(2026, 3, 2, 0, 0))
    # Other processes' work looked at once a day: beside the loop, the lease heartbeat sleeps.
    config = SchedulerConfig(watch=timedelta(days=1))
    database = loaded_database
    scheduler = Scheduler(ScheduleStore(database), QuestionStore(database), clock,
                          Platforms({"test": adapter}), config)  # fmt: skip

    def sleeping_until(job: datetime) -> bool:
        return clock.sleeping_until == [job, utc(2026, 3, 3, 0, 0)]

    loop = asyncio.create_task(scheduler.run())
    try:
        await until(lambda: sleeping_until(utc(2026, 3, 2, 12, 0)))
        early = await add(loaded_database, "early", at="09:00")
        await scheduler.schedule_changed(early.id)
        await until(lambda: sleeping_until(utc(2026, 3, 2, 1, 0)))
        clock.set(utc(2026, 3, 2, 1, 0))
        await asyncio.wait_for(adapter.posted.wait(), PATIENCE)
        assert adapter.sent[0].channel.channel == "early"
        await until(lambda: sleeping_until(utc(2026, 3, 2, 9, 0)))  # its answer
    finally:
        loop.cancel()
        with pytest.raises(asyncio.CancelledError):
            await loop
    assert clock.sleeping_until == []  # nothing left running


async def test_post_now_posts_at_once_and_its_answer_follows(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    schedule = await add(loaded_database, answer="+2h")
    clock.set(utc(2026, 3, 2, 5, 0))
    scheduler = make(loaded_database, clock, adapter)
    await scheduler.start()
    assert await scheduler.post_now(schedule)
    assert len(adapter.sent) == 1
    assert scheduler.next_due() == utc(2026, 3, 2, 7, 0)
    await at(scheduler, clock, utc(2026, 3, 2, 7, 0))
    assert adapter.sent[1].thread_of == MessageRef(schedule.channel, adapter.sent[0].ref.message_id)


async def test_an_unexpected_adapter_error_is_retried_like_a_refusal(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    adapter.failures = [RuntimeError("adapter bug")]
    await add(loaded_database)
    clock.set(utc(2026, 3, 2, 1, 0))
    scheduler = make(loaded_database, clock, adapter)
    await scheduler.start()
    await scheduler.tick()
    assert adapter.sent == [] and scheduler.next_due() == utc(2026, 3, 2, 1, 0, 30)
    await at(scheduler, clock, utc(2026, 3, 2, 1, 0, 30))
    assert len(adapter.sent) == 1


async def test_moving_the_time_after_todays_post_does_not_post_twice_today(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    schedule = await add(loaded_database, answer="+23h")
    clock.set(utc(2026, 3, 2, 0, 0))
    scheduler = make(loaded_database, clock, adapter)
    await scheduler.start()
    await at(scheduler, clock, utc(2026, 3, 2, 1, 0))  # 09:00 in Shanghai: posted
    moved = dataclasses.replace(schedule, post_at=parse_local_time("15:00"))
    await ScheduleStore(loaded_database).save(moved)
    await scheduler.schedule_changed(schedule.id)
    assert scheduler.next_due() == utc(2026, 3, 2, 7, 0)  # 15:00 today is planned ...
    await at(scheduler, clock, utc(2026, 3, 2, 7, 0))
    assert len(adapter.sent) == 1  # ... but today's slot was already claimed
    await at(scheduler, clock, utc(2026, 3, 3, 7, 0))
    questions = [s for s in adapter.sent if s.thread_of is None]
    assert len(questions) == 2  # tomorrow at the new time (yesterday's answer went out too)


async def test_a_coding_answer_says_how_many_solved_it(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    from bot.grades import Grade, Verdict
    from bot.scheduler import SchedulerConfig
    from bot.store.submissions import SubmissionStore
    from bot.types import User

    submissions = SubmissionStore(loaded_database)
    for person in ("alice", "bob", "alice"):  # alice twice: she counts once
        sid = await submissions.add(User("test", person, person), "fast-power", "x", clock.now())
        await submissions.finish(sid, Grade("fast-power", Verdict.ACCEPTED), clock.now())
    await add(loaded_database, days="mon", coding="mon", answer="+1h")
    clock.set(utc(2026, 3, 2, 0, 0))  # a Monday
    database = loaded_database
    scheduler = Scheduler(ScheduleStore(database), QuestionStore(database), clock,
                          Platforms({"test": adapter}), SchedulerConfig(), submissions)  # fmt: skip
    await scheduler.start()
    await at(scheduler, clock, utc(2026, 3, 2, 1, 0))
    await at(scheduler, clock, utc(2026, 3, 2, 2, 0))
    question, answer = adapter.sent
    assert question_id(question.reply) == "fast-power"
    assert answer.reply.footer is not None and "solved so far by: 2" in answer.reply.footer
