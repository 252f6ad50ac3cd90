"""`/forget me`: counts first, deletes only after the member confirms, only their own rows,
in every table that holds rows about members; a replayed button finds nothing left."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.app import App
from bot.store.db import Database
from bot.store.members import PERSONAL
from bot.store.quizzes import Answer
from bot.store.submissions import SubmissionStore
from bot.types import ActionKind, ChannelRef, Invocation, Locale, Reply, Tone, User

ALICE, BOB = User("test", "u1", "alice"), User("test", "u2", "bob")
WHERE = ChannelRef("test", "c1")
NOW = datetime(2026, 3, 2, tzinfo=UTC)


async def holdings(app: App, who: User) -> None:
    await SubmissionStore(app.db).add(who, "fast-power", "def my_pow(x, n): ...", NOW)
    await app.quizzes.record(1, "2026-03-02", who, Answer(0, True), NOW)
    await app.store.record_hint(who, "fast-power", 1, NOW.isoformat())
    await app.store.record_reveal(who, "python-gil", NOW.isoformat())


async def press(app: App, reply: Reply, label: str, who: User = ALICE) -> Reply:
    (button,) = [a for a in reply.actions if a.kind is ActionKind.FORGET and a.label == label]
    return await app.core.handle(Invocation(*button.invocation(), who, WHERE, Locale.EN))


async def rows_of(db: Database, who: User) -> int:
    total = 0
    for table in PERSONAL:
        found = await db.fetch_all(f"SELECT count(*) FROM {table} WHERE user_id = ?", (who.id,))
        total += int(found[0][0])
    return total


async def test_forget_me_asks_then_deletes_only_the_askers_rows(app: App) -> None:
    await holdings(app, ALICE)
    await holdings(app, BOB)
    asked = await app.core.handle_line("/forget me", user=ALICE, channel=WHERE, locale=Locale.EN)
    assert asked.ephemeral and "1 submission(s) (solutions and /run snippets), 1 quiz answer(s), " \
        "1 hint(s) taken, 1 answer(s) opened" in asked.body  # fmt: skip
    kept = await press(app, asked, "Keep it")
    assert kept.body == "Nothing was deleted." and await rows_of(app.db, ALICE) == 4
    done = await press(app, asked, "Delete all of it")
    assert done.body.startswith("Deleted: 1 submission(s) (solutions and /run snippets), 1 quiz")
    assert await rows_of(app.db, ALICE) == 0 and await rows_of(app.db, BOB) == 4
    again = await press(app, asked, "Delete all of it")  # a replayed button
    assert again.body == "The bot holds nothing on you."
    assert await rows_of(app.db, BOB) == 4


async def test_bad_forms_get_sentences(app: App) -> None:
    reply = await app.core.handle_line("/forget you", user=ALICE, channel=WHERE,
                                       locale=Locale.EN)  # fmt: skip
    assert reply.tone is Tone.USER_ERROR and "`what` must be one of: me." in reply.body
    nothing = await app.core.handle_line("/forget me", user=ALICE, channel=WHERE,
                                         locale=Locale.ZH)  # fmt: skip
    assert nothing.body == "机器人没有保存你的任何数据。" and not nothing.actions


async def test_every_table_about_members_is_forgotten(app: App) -> None:
    sql = {  # each engine's catalogue: the tables with a user_id column
        "sqlite": "SELECT m.name FROM sqlite_master AS m, pragma_table_info(m.name) AS c "
        "WHERE m.type = 'table' AND c.name = 'user_id'",
        "postgres": "SELECT table_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND column_name = 'user_id'",
    }[app.db.engine]
    personal = {str(row[0]) for row in await app.db.fetch_all(sql)}
    assert personal == set(PERSONAL)
