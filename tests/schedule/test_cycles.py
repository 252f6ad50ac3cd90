"""A channel's pool in rounds: when every question of the filtered pool has been posted, the
post that starts the next round says so, and never repeats the question that closed the last
round, even when the bot restarted in between (the ledger remembers, not the process)."""

from __future__ import annotations

import itertools

from bot.i18n import t
from bot.scheduler import Scheduler
from bot.store.db import Database
from bot.types import Action, ActionKind, Locale
from tests.fakes import FakeAdapter, FakeClock
from tests.schedule.test_scheduler import add, at, make, question_id, utc

NEW_ROUND = t(Locale.EN, "schedule.new_round")
POOL = {"python-gil", "ring-allreduce", "gpu-memory"}  # the explained questions of the bank


async def next_day(scheduler: Scheduler, clock: FakeClock) -> None:
    """Run the schedule through its next question and that question's answer."""
    for _ in range(2):
        due = scheduler.next_due()
        assert due is not None
        await at(scheduler, clock, due)


def questions(adapter: FakeAdapter) -> list[tuple[str, bool]]:
    """Each question posted, and whether its post announced a new round."""
    return [(question_id(s.reply), NEW_ROUND in s.reply.body)
            for s in adapter.sent if s.thread_of is None]  # fmt: skip


async def test_each_new_round_is_announced_and_never_opens_with_the_last_question(
    loaded_database: Database,
) -> None:
    clock, adapter = FakeClock(utc(2026, 3, 1, 12, 0)), FakeAdapter()
    await add(loaded_database, answer="+1h")
    scheduler = make(loaded_database, clock, adapter)
    await scheduler.start()
    for _ in range(30):
        await next_day(scheduler, clock)
    posted = questions(adapter)
    ids = [qid for qid, _ in posted]
    rounds = [ids[i : i + 3] for i in range(0, 30, 3)]
    assert all(set(r) == POOL for r in rounds)  # each round is the whole pool, once
    assert all(a != b for a, b in itertools.pairwise(ids)), ids
    assert [i for i, (_, announced) in enumerate(posted) if announced] == list(range(3, 30, 3))
    first = next(s.reply for s in adapter.sent if NEW_ROUND in s.reply.body)
    assert first.body.startswith(NEW_ROUND)  # above the question, not lost in it


async def test_a_restart_at_the_end_of_a_round_still_avoids_the_last_question(
    loaded_database: Database,
) -> None:
    clock, adapter = FakeClock(utc(2026, 3, 1, 12, 0)), FakeAdapter()
    await add(loaded_database, answer="+1h")
    for _ in range(10):  # a restart after every round: a new process, the same database
        scheduler = make(loaded_database, clock, adapter)
        await scheduler.start()
        for _ in range(3):
            await next_day(scheduler, clock)
    posted = questions(adapter)
    ids = [qid for qid, _ in posted]
    assert all(a != b for a, b in itertools.pairwise(ids)), ids
    assert sum(announced for _, announced in posted) == 9


async def test_a_pool_of_one_repeats_it_and_says_so_in_chinese(
    loaded_database: Database,
) -> None:
    clock, adapter = FakeClock(utc(2026, 3, 1, 12, 0)), FakeAdapter()
    schedule = await add(loaded_database, answer="+1h", topic="python")
    await loaded_database.execute("UPDATE schedules SET locale = 'zh' WHERE id = ?", (schedule.id,))
    scheduler = make(loaded_database, clock, adapter)
    await scheduler.start()
    for _ in range(3):
        await next_day(scheduler, clock)
    posts = [s.reply for s in adapter.sent if s.thread_of is None]
    assert {reply.title for reply in posts} == {"Python全局解释器锁（GIL）是什么？"}
    bodies = [reply.body for reply in posts]
    said = t(Locale.ZH, "schedule.new_round")
    assert [said in body for body in bodies] == [False, True, True]
    reveals = [s.reply for s in adapter.sent if s.thread_of is not None]  # each answer
    assert reveals and all(reply.actions[-1] == Action(ActionKind.REPORT_MISTAKE, "报告错误",
                           "python-gil") for reply in reveals)  # can be reported  # fmt: skip
