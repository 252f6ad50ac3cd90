"""The reports' store on both engines: filed, counted for the rate limit, paged by server,
resolved once and only in its own server, listed for the bank, anonymised by /forget me."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.store.db import Database
from bot.store.members import MemberData
from bot.store.mistakes import MistakeStore, NewReport
from bot.types import Locale, User

ALICE, BOB = User("discord", "u1", "alice"), User("discord", "u2", "bob")
MOD = User("discord", "m1", "mod", is_moderator=True)
AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
HERE, THERE = "discord:g1", "discord:g2"


def new(item: str, who: User = ALICE, server: str = HERE, text: str = "wrong") -> NewReport:
    return NewReport(item, server, who, Locale.ZH, "quoted", text)


async def test_reports_are_paged_by_server_and_resolved_once_there(
    loaded_database: Database,
) -> None:
    store = MistakeStore(loaded_database)
    first = await store.add(new("python-gil"), AT)
    second = await store.add(new("python-gil", BOB, text="also"), AT + timedelta(minutes=1))
    await store.add(new("python-gil", server=THERE), AT)
    shown, total = await store.open_page(HERE, 0)
    assert total == 2 and shown is not None and shown.id == first and shown.locale is Locale.ZH
    assert (shown.quote, shown.text, shown.reporter_name) == ("quoted", "wrong", "alice")
    assert (await store.open_page(HERE, 1))[0].id == second  # type: ignore[union-attr]
    assert await store.open_page(HERE, 2) == (None, 2)
    assert await store.resolve(first, THERE, MOD, "no", AT) is None  # not that server's
    done = await store.resolve(first, HERE, MOD, "fixed", AT + timedelta(hours=1))
    assert done is not None and (done.state, done.note, done.resolver_name) == (
        "resolved", "fixed", "mod")  # fmt: skip
    assert await store.resolve(first, HERE, MOD, "again", AT) is None  # once
    assert (await store.open_page(HERE, 0))[1] == 1


async def test_the_rate_limit_counts_a_members_recent_reports(database: Database) -> None:
    store = MistakeStore(database)
    for minutes in (0, 30, 59):
        await store.add(new("python-gil"), AT + timedelta(minutes=minutes))
    assert await store.filed_since(ALICE, AT) == 3
    assert await store.filed_since(ALICE, AT + timedelta(minutes=31)) == 1
    assert await store.filed_since(BOB, AT) == 0


async def test_the_bank_sees_reports_on_its_own_items_only(loaded_database: Database) -> None:
    store = MistakeStore(loaded_database)
    shared = await store.add(new("python-gil"), AT)
    await store.add(new("a-servers-own-item"), AT)
    resolved = await store.add(new("fast-power", server=THERE), AT)
    await store.resolve(resolved, THERE, MOD, "fixed", AT)
    assert [r.id for r in await store.on_shared_items(open_only=True)] == [shared]
    assert [r.id for r in await store.on_shared_items(open_only=False)] == [shared, resolved]


async def test_forgetting_a_member_keeps_the_text_of_their_reports(database: Database) -> None:
    store, members = MistakeStore(database), MemberData(database)
    mine = await store.add(new("python-gil"), AT)
    theirs = await store.add(new("python-gil", BOB), AT)
    await store.resolve(theirs, HERE, User("discord", "u1", "alice"), "thanks", AT)
    assert (await members.held(ALICE))["mistake_reports"] == 1
    assert (await members.forget(ALICE))["mistake_reports"] == 1
    kept = await store.get(mine)
    assert kept is not None and kept.text == "wrong" and kept.quote == "quoted"
    assert kept.reporter_id is None and kept.reporter_name is None
    other = await store.get(theirs)  # alice resolved bob's: the note stays, not her name
    assert other is not None and other.reporter_name == "bob" and other.resolver_name is None
    assert other.note == "thanks" and (await members.held(ALICE))["mistake_reports"] == 0
