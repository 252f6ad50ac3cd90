"""The schedules and the daily-post ledger on both engines: claims that split between
processes, leases that keep a live sender's posts and hand a dead one's over, and the change
count other processes read. Several stores over one database stand for several processes."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime, timedelta

from bot.schedule.model import AnswerTiming, Cycle, Schedule, parse_days
from bot.schedule.times import parse_local_time, parse_zone
from bot.store.db import Database
from bot.store.schedules import Lease, Post, ScheduleStore
from bot.types import ChannelRef, Kind

NOW = datetime(2026, 3, 2, 1, 0, tzinfo=UTC)
LEASE = timedelta(seconds=60)


def lease(owner: str, at: datetime = NOW) -> Lease:
    return Lease(owner, at + LEASE)


def draft(channel: str, platform: str = "test", at: str = "09:00") -> Schedule:
    return Schedule(
        id=0, channel=ChannelRef(platform, channel, "guild"), post_at=parse_local_time(at),
        zone=parse_zone("Asia/Shanghai"), days=parse_days("daily"),
        coding_days=parse_days("none"), answer=AnswerTiming.parse("+8h"), topic=None,
    )  # fmt: skip


def post(schedule_id: int, slot: str = "2026-03-02", part: str = "question",
         question: str = "q1", due: datetime = NOW) -> Post:  # fmt: skip
    return Post(schedule_id, slot, part, question, Kind.QA, 0, due, "pending", 0,  # type: ignore[arg-type]
                f"n-{schedule_id}-{slot}-{part}", None)  # fmt: skip


async def with_question(db: Database, *ids: str) -> None:
    await db.executemany(
        "INSERT INTO questions (id, title, kind, difficulty, answer, content_hash) "
        "VALUES (?, ?, 'qa', 'easy', 'a', 'h')",
        [(qid, qid) for qid in ids or ("q1",)],
    )


async def test_claims_split_between_processes_and_skip_removed_schedules(
    backend: Database,
) -> None:
    await with_question(backend)
    store = ScheduleStore(backend)
    ids = [(await store.save(draft(f"c{i}"))).id for i in range(120)]
    posts = [post(i) for i in ids]
    # Three processes claim the same minute at once: each slot goes to exactly one.
    claims = await asyncio.gather(
        *(ScheduleStore(backend).claim_all(posts, lease(f"p{n}")) for n in range(3))
    )
    keys = [(p.schedule_id, p.slot, p.part) for claimed in claims for p in claimed]
    assert sorted(keys) == sorted((p.schedule_id, p.slot, p.part) for p in posts)
    assert not await store.claim(posts[0], lease("p9"))
    await store.remove(ids[1])
    late = [post(ids[0], "2026-03-03"), post(ids[1], "2026-03-03")]  # the second is gone
    assert await store.claim_all(late, lease("p0")) == [late[0]]


async def test_a_live_claim_is_left_alone_and_a_lapsed_one_taken_over_once(
    backend: Database,
) -> None:
    await with_question(backend)
    store = ScheduleStore(backend)
    here = await store.save(draft("c1"))
    away = await store.save(draft("c2", platform="elsewhere"))
    mine, theirs = post(here.id), post(away.id)
    assert await store.claim_all([mine, theirs], lease("dead")) == [mine, theirs]
    live = NOW + timedelta(seconds=30)
    assert await store.take_over(lease("b", live), live, frozenset({"test"})) == []
    lapsed = NOW + timedelta(seconds=61)
    # Two live processes look at once: one gets the post, on its own platform only.
    taken = await asyncio.gather(
        *(ScheduleStore(backend).take_over(lease(o, lapsed), lapsed, frozenset({"test"}))
          for o in ("b", "c"))
    )  # fmt: skip
    assert sorted(len(t) for t in taken) == [0, 1]
    assert [p.schedule_id for t in taken for p in t] == [here.id]
    winner, loser = ("b", "c") if taken[0] else ("c", "b")
    assert not await store.retake(mine, lease(loser, lapsed), lapsed)
    assert await store.retake(mine, lease(winner, lapsed), lapsed)
    # The winner renews; a minute later the post is still its own.
    later = lapsed + timedelta(seconds=50)
    assert await store.renew(lease(winner, later), frozenset({"test"})) == 1
    assert await store.take_over(lease(loser, later), later + LEASE, frozenset({"test"})) == []
    # A process never takes over its own claims: it holds them in memory.
    gone = later + 3 * LEASE
    assert await store.take_over(lease(winner, gone), gone, frozenset({"test"})) == []
    await store.mark_all_sent([(mine, "m-1", later)])
    assert await store.take_over(lease(loser, gone), gone, frozenset({"test"})) == []
    assert not await store.retake(mine, lease(winner, gone), gone)  # sent: nothing to hold


async def test_a_claim_without_a_lease_is_open_to_take_over(backend: Database) -> None:
    """Claims made before leases existed (NULL) count as lapsed."""
    await with_question(backend)
    store = ScheduleStore(backend)
    s = await store.save(draft("c1"))
    assert await store.claim(post(s.id))
    taken = await store.take_over(lease("b"), NOW, frozenset({"test"}))
    assert [(p.schedule_id, p.state, p.part) for p in taken] == [(s.id, "pending", "question")]


async def test_every_change_is_counted_and_found_since_a_count(backend: Database) -> None:
    store, other = ScheduleStore(backend), ScheduleStore(backend)
    start = await other.revision()
    first = await store.save(draft("c1"))
    second = await store.save(draft("c2"))
    await store.save(draft("c9", platform="elsewhere"))
    seen = await other.revision()
    assert seen == start + 3
    assert [s.id for s in await other.changed_since(start, frozenset({"test"}))] == [
        first.id, second.id
    ]  # fmt: skip
    await store.set_paused(first.id, True, "why")
    await store.save(dataclasses.replace(second, post_at=parse_local_time("10:00")))
    changed = await other.changed_since(seen, frozenset({"test"}))
    assert [(s.id, s.paused, s.post_at.hour) for s in changed] == [
        (first.id, True, 9), (second.id, False, 10)
    ]  # fmt: skip
    await store.remove(first.id)
    assert await other.revision() == seen + 3
    assert await other.count_on(frozenset({"test"})) == 1
    assert await other.ids_on(frozenset({"test", "elsewhere"})) == {second.id, second.id + 1}
    assert await other.changed_since(seen + 3, frozenset({"test"})) == []
    assert await other.on_platforms(frozenset()) == []


async def test_the_ledger_records_sends_failures_answers_and_cycles(backend: Database) -> None:
    await with_question(backend, "q1", "q2")
    store = ScheduleStore(backend)
    s = await store.save(draft("c1"))
    monday, tuesday = post(s.id), post(s.id, "2026-03-03", question="q2",
                                       due=NOW + timedelta(days=1))  # fmt: skip
    tuesday = dataclasses.replace(tuesday, cycle=1)
    assert await store.claim_all([monday, tuesday], lease("a")) == [monday, tuesday]
    assert await store.mark_attempt(tuesday, "rate limited", final=False) == 1
    await store.mark_all_sent([(monday, "m-1", NOW)])
    assert [p.slot for p in await store.pending()] == ["2026-03-03"]
    asked = await store.question_post(s.id, "2026-03-02")
    assert asked is not None and (asked.state, asked.message_id, asked.attempts) == (
        "sent", "m-1", 1
    )  # fmt: skip
    assert [p.slot for p in await store.unanswered()] == ["2026-03-02"]
    assert not await store.answer_claimed(s.id, "2026-03-02")
    assert await store.claim(post(s.id, part="answer"), lease("a"))
    assert await store.answer_claimed(s.id, "2026-03-02")
    assert await store.unanswered() == []
    assert await store.last_question_dues() == {s.id: NOW + timedelta(days=1)}
    assert await store.current_cycles([s.id]) == {(s.id, Kind.QA): Cycle(1, frozenset({"q2"}),
                                                                          "q2")}  # fmt: skip
    assert await store.starts_cycle(tuesday)
    assert await store.mark_attempt(tuesday, "gone", final=True) == 2
    assert [p.part for p in await store.pending()] == ["answer"]
