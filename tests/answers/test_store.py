"""The answers' store on both engines: given, counted for the rate limit, listed by server
and item, adopted once and only in its own server (the item's explanation and search row
rewritten in one transaction), the thread to post under, and /forget me."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.store.answers import AnswerStore, NewAnswer
from bot.store.community import CommunityStore, NewItem, Shared
from bot.store.db import Database
from bot.store.members import MemberData
from bot.store.questions import QuestionStore
from bot.types import ChannelRef, Kind, Question, Source, User

ALICE, BOB = User("discord", "u1", "alice"), User("discord", "u2", "bob")
MOD = User("discord", "m1", "mod", is_moderator=True)
AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
HERE, THERE = "discord:g1", "discord:g2"
ITEM = "s.ring-buffer"
UNEXPLAINED = "（面经没有给出答案。The report gave no answer.）"


async def open_item(db: Database, server: str = HERE) -> Question:
    """A published item of `server` without an explanation, as an import leaves one."""
    community = CommunityStore(db)
    shared = Shared(server, f"digest-{server}", Source("r", "r"), ALICE, AT)
    item = NewItem(ITEM, "手撕：环形缓冲区", Kind.QA, ("python",), "", UNEXPLAINED)
    assert await community.record(shared, [item], [])
    found = await QuestionStore(db).get(ITEM, drafts=True, server=server)
    assert found is not None and await community.publish(found, MOD, AT)
    return found


def new(who: User = ALICE, server: str = HERE, text: str = "use a **deque**") -> NewAnswer:
    return NewAnswer(ITEM, server, who, text)


async def test_an_answer_is_adopted_once_in_its_own_server(database: Database) -> None:
    q, store = await open_item(database), AnswerStore(database)
    first = await store.add(new(), AT)
    second = await store.add(new(BOB, text="two pointers"), AT + timedelta(minutes=1))
    await store.add(new(server=THERE), AT)
    listed, total = await store.open_for(HERE, ITEM, 1)
    assert total == 2 and [a.id for a in listed] == [first.id]
    assert (first.author_name, first.text, first.state) == ("alice", "use a **deque**", "open")
    assert await store.get(first.id, THERE) is None  # another server's: unknown
    assert await store.adopt(first, q, MOD, AT)
    served = await QuestionStore(database).get(ITEM, server=HERE)
    assert served is not None and served.answer == "use a **deque**"
    assert [
        h.question_id for h in await QuestionStore(database).search("deque", 5, server=HERE)
    ] == [ITEM]
    assert not await store.adopt(second, q, MOD, AT)  # the item has its explanation now
    assert not await store.adopt(first, q, MOD, AT)  # once
    adopted = await store.adopted(ITEM, HERE)
    assert (
        adopted is not None and adopted.id == first.id and await store.adopted(ITEM, THERE) is None
    )
    assert (await store.open_for(HERE, ITEM, 5))[1] == 1
    row = await database.fetch_one("SELECT answer FROM questions WHERE id = ?", (ITEM,))
    assert row is not None and str(row[0]) == "use a **deque**"


async def test_the_rate_limit_counts_a_members_recent_answers(database: Database) -> None:
    store = AnswerStore(database)
    for minutes in (0, 30, 59):
        await store.add(new(), AT + timedelta(minutes=minutes))
    assert await store.given_since(ALICE, AT) == 3
    assert await store.given_since(ALICE, AT + timedelta(minutes=31)) == 1
    assert await store.given_since(BOB, AT) == 0


async def test_no_daily_post_no_thread(database: Database) -> None:
    assert await AnswerStore(database).thread_of(ITEM, HERE, ChannelRef("discord", "c", "g1")) \
        is None  # fmt: skip


async def test_forget_me_deletes_waiting_answers_and_unnames_adopted_ones(
    database: Database,
) -> None:
    q, store, members = await open_item(database), AnswerStore(database), MemberData(database)
    adopted = await store.add(new(), AT)
    await store.add(new(text="waiting"), AT)
    await store.add(new(BOB, text="bob's"), AT)
    assert await store.adopt(adopted, q, MOD, AT)
    assert (await members.held(ALICE))["group_answers"] == 2
    assert (await members.forget(ALICE))["group_answers"] == 2
    assert (await members.held(ALICE))["group_answers"] == 0
    rows = await database.fetch_all(
        "SELECT body, author_id, author_name, state FROM group_answers ORDER BY id"
    )
    assert [tuple(r) for r in rows] == [("use a **deque**", None, None, "adopted"),
                                        ("bob's", "u2", "bob", "open")]  # fmt: skip
    kept = await store.adopted(ITEM, HERE)
    assert kept is not None and kept.author_id is None
    await members.forget(MOD)  # the moderator who adopted it: no longer named either
    row = await database.fetch_one("SELECT adopted_by FROM group_answers WHERE id = ?",
                                   (adopted.id,))  # fmt: skip
    assert row is not None and row[0] is None
