"""Admission: one job per person, a few a minute, a bounded queue that says how busy it is."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta

import pytest

from bot.errors import TooBusy
from bot.grading.admission import FORGET_ABOVE, Admission, AdmissionConfig
from bot.types import Locale, User
from tests.fakes import FakeClock

ALICE, BOB = User("test", "alice", "Alice"), User("test", "bob", "Bob")


async def test_one_job_per_person_at_a_time(clock: FakeClock) -> None:
    admission = Admission(clock)
    ticket = admission.admit(ALICE, Locale.EN)
    async with ticket:
        with pytest.raises(TooBusy, match="already have a submission"):
            admission.admit(ALICE, Locale.EN)
        async with admission.admit(BOB, Locale.EN):  # someone else is fine
            pass
    async with admission.admit(ALICE, Locale.EN):  # and after the verdict, Alice again
        pass


async def test_a_few_a_minute(clock: FakeClock) -> None:
    admission = Admission(clock, AdmissionConfig(per_minute=3))
    for _ in range(3):
        async with admission.admit(ALICE, Locale.EN):
            clock.advance(timedelta(seconds=10))
    with pytest.raises(TooBusy, match="At most 3 submissions a minute; try again in 31 s"):
        admission.admit(ALICE, Locale.EN)
    clock.advance(timedelta(seconds=31))
    async with admission.admit(ALICE, Locale.EN):
        pass


async def test_run_has_its_own_allowance(clock: FakeClock) -> None:
    admission = Admission(clock, AdmissionConfig(per_minute=2))
    for _ in range(2):
        async with admission.admit(ALICE, Locale.EN, "run"):
            pass
    with pytest.raises(TooBusy, match="At most 2"):
        admission.admit(ALICE, Locale.EN, "run")
    async with admission.admit(ALICE, Locale.EN, "submit"):  # snippets took no submissions
        pass


async def test_a_full_queue_says_how_many_are_ahead(clock: FakeClock) -> None:
    admission = Admission(clock, AdmissionConfig(concurrency=1, queue_size=2))
    release = asyncio.Event()
    users = [User("test", str(i), str(i)) for i in range(3)]

    async def grade(user: User) -> None:
        async with admission.admit(user, Locale.EN):
            await release.wait()

    tasks = [asyncio.create_task(grade(u)) for u in users]  # one runs, two wait
    await until(lambda: admission.waiting == 2)
    with pytest.raises(TooBusy, match="2 submissions ahead of you"):
        admission.admit(User("test", "late", "Late"), Locale.EN)
    with pytest.raises(TooBusy, match="前面还有 2 个提交"):
        admission.admit(User("test", "late", "Late"), Locale.ZH)
    release.set()
    await asyncio.gather(*tasks)
    async with admission.admit(User("test", "late", "Late"), Locale.EN):
        assert admission.waiting == 0


async def test_a_cancelled_wait_gives_the_turn_back(clock: FakeClock) -> None:
    admission = Admission(clock, AdmissionConfig(concurrency=1))
    async with admission.admit(ALICE, Locale.EN):
        waiting = asyncio.create_task(_enter(admission, BOB))
        await until(lambda: admission.waiting == 1)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
    assert admission.waiting == 0
    async with admission.admit(BOB, Locale.EN):
        pass


async def until(condition: Callable[[], bool]) -> None:
    """Let other tasks run until `condition` holds (they need a few loop turns, no time)."""
    for _ in range(100):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition never held")


async def _enter(admission: Admission, user: User) -> None:
    async with admission.admit(user, Locale.EN):
        pass


async def test_the_rate_table_forgets_people_who_stopped(clock: FakeClock) -> None:
    admission = Admission(clock)
    for i in range(FORGET_ABOVE + 10):
        async with admission.admit(User("test", f"u{i}", "someone"), Locale.EN):
            pass
    clock.advance(timedelta(minutes=2))
    async with admission.admit(ALICE, Locale.EN):
        pass
    assert len(admission._recent) == 1  # only Alice's window: the others had gone quiet
    for _ in range(admission.config.per_minute - 1):  # and her own allowance still counts
        async with admission.admit(ALICE, Locale.EN):
            pass
    with pytest.raises(TooBusy):
        admission.admit(ALICE, Locale.EN)
