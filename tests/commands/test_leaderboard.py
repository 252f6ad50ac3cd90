"""`/leaderboard` through the core: points per server or channel, this week or month in the
channel's schedule zone, ties to whoever got there first, the top ten and the asker's own
rank, aligned by display width; bad input gets a sentence listing the valid values."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.app import App
from bot.learning.leaderboards import Leaderboards
from bot.store.activity import ActKind
from bot.store.boards import BoardStore, Scope
from bot.store.schedules import ScheduleStore
from bot.text.tables import width
from bot.types import ChannelRef, Invocation, Locale, Reply, Tone, User
from tests.fakes import FakeClock

HERE = ChannelRef("test", "c1", "guild")
THERE = ChannelRef("test", "c2", "guild")
ADMIN = User("test", "admin", "admin", is_admin=True)
NOW = datetime(2026, 3, 11, 12, 0, tzinfo=UTC)  # Wednesday, ISO week 11


def member(i: int, name: str | None = None) -> User:
    return User("test", f"m{i}", name or f"member{i}")


async def score(app: App, who: User, points: int, at: datetime, where: ChannelRef = HERE,
                question: str = "python-gil") -> None:  # fmt: skip
    key = f"test:{who.id}:{at.isoformat()}:{where.channel}:{question}"
    assert await app.ledger.record(ActKind.QUIZ, who, where, question, correct=points > 0,
                                   points=points, at=at, dedupe=key)  # fmt: skip


async def board(app: App, who: User, where: ChannelRef = HERE, locale: Locale = Locale.EN,
                **options: str) -> Reply:  # fmt: skip
    return await app.core.handle(Invocation("leaderboard", options, who, where, locale))


def rows(reply: Reply) -> list[str]:
    """The table's lines under its rule."""
    block = reply.body.split("```")[1].strip("\n").splitlines()
    return block[2:]


async def test_an_empty_board_says_how_to_get_on_it(app: App, clock: FakeClock) -> None:
    clock.set(NOW)
    reply = await board(app, member(1))
    assert reply.title == "Leaderboard: this week, this server"
    assert "No points here yet" in reply.body


async def test_week_month_and_all_in_the_channels_zone(app: App, clock: FakeClock) -> None:
    clock.set(NOW)
    await app.core.handle(
        Invocation(
            "schedule",
            {"action": "set", "time": "09:00", "timezone": "America/New_York"},
            ADMIN,
            HERE,
        )
    )
    alice, bob = member(1, "alice"), member(2, "bob")
    monday_ny = datetime(2026, 3, 9, 4, 30, tzinfo=UTC)  # 00:30 Monday in New York (EDT)
    await score(app, alice, 10, monday_ny)
    await score(app, bob, 15, monday_ny - timedelta(hours=1))  # 23:30 Sunday there: last week
    await score(app, bob, 5, datetime(2026, 2, 27, 12, tzinfo=UTC))  # February
    week = rows(await board(app, alice))
    assert [line.split()[:3] for line in week] == [["1", "alice", "10"]]
    month = rows(await board(app, alice, period="month"))
    assert [line.split()[:3] for line in month] == [["1", "bob", "15"], ["2", "alice", "10"]]
    ever = rows(await board(app, alice, period="all"))
    assert [line.split()[:3] for line in ever] == [["1", "bob", "20"], ["2", "alice", "10"]]
    utc = rows(await board(app, alice, ChannelRef("test", "no-schedule", "guild")))
    assert [line.split()[1:3] for line in utc] == [["bob", "15"], ["alice", "10"]]  # in UTC


async def test_ties_go_to_who_got_there_first_and_the_asker_sees_their_rank(
    app: App, clock: FakeClock
) -> None:
    clock.set(NOW)
    start = datetime(2026, 3, 9, 1, tzinfo=UTC)
    for i in range(12):  # member0 scores 12*5, member11 scores 5; member 5 and 6 tie...
        await score(app, member(i), 5 * (12 - i), start + timedelta(minutes=i))
    await score(app, member(6), 5, start + timedelta(minutes=30))  # ...member6 catches up late
    await score(app, member(5), 0, start + timedelta(hours=1))  # a wrong answer changes nothing
    top = rows(await board(app, member(11)))
    assert len(top) == 10
    assert [line.split()[1] for line in top[5:7]] == ["member5", "member6"]
    assert "You: #12 with 5 points." in (await board(app, member(11))).body
    inside = await board(app, member(0))
    assert "You:" not in inside.body and "no points" not in inside.body
    assert "no points here" in (await board(app, member(99))).body


async def test_per_channel_and_per_topic(app: App, clock: FakeClock) -> None:
    clock.set(NOW)
    alice, bob = member(1, "alice"), member(2, "bob")
    await score(app, alice, 10, NOW - timedelta(hours=1))
    await score(app, bob, 30, NOW - timedelta(hours=1), THERE, "ring-allreduce")
    server = rows(await board(app, alice))
    assert [line.split()[1] for line in server] == ["bob", "alice"]
    channel = await board(app, alice, scope="channel")
    assert channel.title == "Leaderboard: this week, this channel"
    assert [line.split()[1] for line in rows(channel)] == ["alice"]
    distributed = await board(app, alice, topic="distributed")
    assert "Topic: `distributed`" in distributed.body
    assert [line.split()[1] for line in rows(distributed)] == ["bob"]


async def test_chinese_names_line_up(app: App, clock: FakeClock) -> None:
    clock.set(NOW)
    await score(app, member(1, "张三丰"), 120, NOW - timedelta(hours=2))
    await score(app, member(2, "bo"), 7, NOW - timedelta(hours=1))
    reply = await board(app, member(1), locale=Locale.ZH)
    assert reply.title == "积分榜：本周，本服务器"
    lines = reply.body.split("```")[1].strip("\n").splitlines()
    points_at = {width(line[: line.rindex(p)]) for line, p in zip(lines[2:], ("120", "7"),
                                                                  strict=True)}  # fmt: skip
    assert len(points_at) == 1  # the points column starts at one display column


async def test_bad_input_lists_what_is_valid(app: App, clock: FakeClock) -> None:
    clock.set(NOW)
    for options, expected in (
        ({"period": "year"}, "`period` must be one of: week, month, all."),
        ({"scope": "galaxy"}, "`scope` must be one of: server, channel."),
        ({"topic": "cooking"}, "There is no topic `cooking`. Topics: "),
        ({"problem": "python-gil"}, "`python-gil` is not a coding problem. Problems: `fast-power`"),
        ({"problem": "nope"}, "`nope` is not a coding problem. Problems: `fast-power`"),
    ):
        reply = await board(app, member(1), **options)
        assert reply.tone is Tone.USER_ERROR and expected in reply.body, reply.body
    summary = await app.core.handle(
        Invocation(
            "schedule",
            {"action": "set", "time": "09:00", "timezone": "UTC", "summary": "daily"},
            ADMIN,
            HERE,
        )
    )
    assert "`summary` must be one of: weekly, off." in summary.body
    assert await ScheduleStore(app.db).for_channel(HERE) is None  # nothing was saved


async def test_boards_read_an_index_range(app: App) -> None:
    """A channel's week reads the channel's rows of the week; a server's week its rows of the
    week (not the server's whole history)."""
    if app.db.engine != "sqlite":
        pytest.skip("SQLite's query plans; PostgreSQL picks its plans by its statistics")
    week = NOW - timedelta(days=7)
    cases = (("AND channel = ?", ("c1",), "activity_channel (platform=? AND workspace=? AND "
              "channel=? AND at>?)"), ("", (), "activity_board (platform=? AND workspace=? AND "
              "at>?)"))  # fmt: skip
    for extra, params, index in cases:
        sql = (
            "EXPLAIN QUERY PLAN SELECT user_id, sum(points) FROM activity WHERE platform = ? "
            f"AND workspace = ? AND at >= ? {extra} GROUP BY user_id"
        )
        plan = await app.db.fetch_all(sql, ("test", "guild", week.isoformat(), *params))
        assert any(f"USING INDEX {index}" in str(row[3]) for row in plan), [r[3] for r in plan]
    where = Scope("test", "guild", "c1", week, None, "python")
    assert await app.scores.boards.standings(where, "m1") == []


async def test_a_warm_board_folds_new_acts_as_a_cold_one_reads_them(
    app: App, clock: FakeClock
) -> None:
    clock.set(NOW)
    alice, bob, carol = member(1, "alice"), member(2, "bob"), member(3, "carol")
    await score(app, alice, 10, NOW - timedelta(hours=3))
    scopes = [Scope("test", "guild", None, NOW - timedelta(days=2)),
              Scope("test", "guild", "c1", NOW - timedelta(days=2)),
              Scope("test", "guild", None, None, None, "distributed")]  # fmt: skip
    warm = app.scores.leaderboards
    for scope in scopes:
        await warm.standings(scope, "m1")
    await score(app, bob, 10, NOW - timedelta(hours=2))  # ties with alice, later
    await score(app, carol, 25, NOW - timedelta(hours=1), THERE, "ring-allreduce")
    await score(app, alice, 5, NOW - timedelta(days=3))  # before the two-day boards
    await score(app, bob, 0, NOW)  # a wrong answer
    await score(app, carol, 40, NOW, ChannelRef("test", "c1", "other-guild"))
    for scope in scopes:
        cold = Leaderboards(BoardStore(app.db))
        assert await warm.standings(scope, "m2") == await cold.standings(scope, "m2"), scope
    rows = await warm.standings(scopes[0], "m2")
    assert [(r.rank, r.name, r.points) for r in rows] == [(1, "carol", 25), (2, "alice", 10),
                                                          (3, "bob", 10)]  # fmt: skip


async def test_forgotten_members_leave_the_boards(app: App, clock: FakeClock) -> None:
    clock.set(NOW)
    alice, bob = member(1, "alice"), member(2, "bob")
    await score(app, alice, 10, NOW - timedelta(hours=3))
    await score(app, bob, 5, NOW - timedelta(hours=3))
    assert [line.split()[1] for line in rows(await board(app, bob))] == ["alice", "bob"]
    await app.core.handle(Invocation("forget-confirm", {"answer": "yes"}, alice, HERE))
    assert [line.split()[1] for line in rows(await board(app, bob))] == ["bob"]
