"""The morning digest of due reviews, on a fake clock: each opted-in member gets one direct
message per local day at 08:00 in their own time zone, listing what is due before their
midnight; nothing due, nothing sent; not opted in, nothing sent; a refusal is not retried
all day; the loop wakes on the clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.app import App, running_digest
from bot.errors import DeliveryError
from bot.store.preferences import Preferences
from bot.types import ActionKind, ChannelRef, Invocation, Locale, User
from tests.fakes import FakeAdapter, FakeClock
from tests.waiting import until

ALICE, BOB = User("test", "u1", "alice"), User("test", "u2", "bob")
CAROL, DAVE = User("test", "u3", "carol"), User("test", "u4", "dave")
WHERE = ChannelRef("test", "c1", "guild")
RATED = datetime(2026, 1, 4, 9, 0, tzinfo=UTC)  # rated Again: due 2026-01-05 09:00 UTC


async def rate_again(app: App, who: User, qid: str = "python-gil") -> None:
    shown = await app.core.handle_line(f"/answer {qid}", user=who, channel=WHERE,
                                       locale=Locale.EN)  # fmt: skip
    (again,) = [a for a in shown.actions if a.kind is ActionKind.RATE and a.label == "Again"]
    await app.core.handle(Invocation(*again.invocation(), who, WHERE, Locale.EN))


async def opted_in(app: App, clock: FakeClock) -> None:
    """Alice in Shanghai and Bob in UTC have a card due; Carol has none; Dave did not opt in.
    (Time zones are set with `/me timezone`, another command; here, in the store.)"""
    clock.set(RATED)
    for who in (ALICE, BOB, DAVE):
        await rate_again(app, who)
    for who in (ALICE, BOB, CAROL):
        await app.core.handle_line("/review digest:on", user=who, channel=WHERE,
                                   locale=Locale.EN)  # fmt: skip
    await Preferences(app.db).set_timezone(ALICE, "Asia/Shanghai")


def recipients(adapter: FakeAdapter) -> list[str]:
    return [user.id for user, _ in adapter.directs]


async def test_each_member_gets_one_digest_at_eight_in_their_own_zone(
    app: App, clock: FakeClock, adapter: FakeAdapter
) -> None:
    await opted_in(app, clock)
    clock.set(datetime(2026, 1, 4, 23, 59, tzinfo=UTC))  # 07:59 in Shanghai; Bob's card not
    assert await app.digest.tick() == 0  # due before his midnight
    clock.set(datetime(2026, 1, 5, 0, 0, tzinfo=UTC))  # 08:00 in Shanghai
    assert await app.digest.tick() == 1 and recipients(adapter) == ["u1"]
    clock.advance(timedelta(minutes=15))
    assert await app.digest.tick() == 0  # once per local day
    clock.set(datetime(2026, 1, 5, 7, 59, tzinfo=UTC))
    assert await app.digest.tick() == 0
    clock.set(datetime(2026, 1, 5, 8, 0, tzinfo=UTC))
    assert await app.digest.tick() == 1 and recipients(adapter) == ["u1", "u2"]

    user, digest = adapter.directs[0]
    assert user == User("test", "u1", "")
    assert digest.title == "Due for review today · 今天要复习的题目"
    assert "1 due: `python-gil`" in digest.body and "到期 1 题：`python-gil`" in digest.body
    assert "/review" in digest.body

    clock.set(datetime(2026, 1, 6, 0, 0, tzinfo=UTC))  # the next morning in Shanghai
    assert await app.digest.tick() == 1 and recipients(adapter)[-1] == "u1"
    await app.core.handle_line("/review digest:off", user=ALICE, channel=WHERE, locale=Locale.EN)
    clock.set(datetime(2026, 1, 7, 0, 0, tzinfo=UTC))
    assert await app.digest.tick() == 0


async def test_a_refused_digest_is_not_retried_all_day(
    app: App, clock: FakeClock, adapter: FakeAdapter
) -> None:
    await opted_in(app, clock)
    clock.set(datetime(2026, 1, 5, 8, 0, tzinfo=UTC))
    adapter.failures.append(DeliveryError("Cannot send messages to this user", permanent=True))
    assert await app.digest.tick() == 1  # Alice's went out; Bob's was refused
    clock.advance(timedelta(hours=2))
    assert await app.digest.tick() == 0 and len(adapter.directs) == 1


async def test_the_loop_wakes_on_the_clock(app: App, clock: FakeClock,
                                           adapter: FakeAdapter) -> None:  # fmt: skip
    await opted_in(app, clock)
    clock.set(datetime(2026, 1, 5, 7, 50, tzinfo=UTC))
    async with running_digest(app):
        await until(lambda: bool(clock.sleeping_until))  # the first pass done
        assert clock.sleeping_until == [datetime(2026, 1, 5, 8, 0, tzinfo=UTC)]
        assert recipients(adapter) == ["u1"]  # Shanghai's afternoon: overdue, sent at once
        clock.set(datetime(2026, 1, 5, 8, 0, tzinfo=UTC))
        await until(lambda: len(adapter.directs) == 2)
        assert recipients(adapter) == ["u1", "u2"]
