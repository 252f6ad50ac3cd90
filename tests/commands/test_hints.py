"""A coding problem's hints in chat: one at a time, private, each with a button for the next,
in the reader's language; recorded once per member and level; refused with a sentence for
items without hints and levels that do not exist."""

from __future__ import annotations

from pathlib import Path

from bot.app import App
from bot.types import ActionKind, ChannelRef, Invocation, Locale, Reply, Tone, User

ALICE = User("test", "u1", "alice")
WHERE = ChannelRef("test", "c1")


async def line(app: App, text: str, locale: Locale = Locale.EN) -> Reply:
    return await app.core.handle_line(text, user=ALICE, channel=WHERE, locale=locale)


async def test_hints_come_one_at_a_time_each_with_a_button_for_the_next(app: App) -> None:
    posted = await line(app, "/question fast-power")
    (button,) = [a for a in posted.actions if a.kind is ActionKind.HINT]
    shown: list[str] = []
    reply = await app.core.handle(Invocation(*button.invocation(), ALICE, WHERE, Locale.EN))
    while True:
        assert reply.ephemeral and reply.tone is Tone.INFO, reply.body
        shown.append(reply.body)
        nexts = [a for a in reply.actions if a.kind is ActionKind.HINT]
        if not nexts:
            break
        reply = await app.core.handle(Invocation(*nexts[0].invocation(), ALICE, WHERE,
                                                 Locale.EN))  # fmt: skip
    assert shown == ["hint 1", "hint 2", "hint 3"]  # the test bank's hints, in English
    assert reply.title is not None and reply.title.startswith("Hint 3 of 3 (nearly the solution)")
    chinese = await line(app, "/hint fast-power level:2", Locale.ZH)
    assert chinese.body == "提示 2" and chinese.title is not None and "思路" in chinese.title


async def test_each_hint_taken_is_recorded_once(app: App) -> None:
    for _ in range(3):
        await line(app, "/hint fast-power level:1")
    await line(app, "/hint fast-power level:2")
    rows = await app.db.fetch_all("SELECT user_id, problem_id, level FROM hints_taken "
                                   "ORDER BY level")  # fmt: skip
    assert [tuple(r) for r in rows] == [("u1", "fast-power", 1), ("u1", "fast-power", 2)]


async def test_no_hints_and_bad_levels_get_sentences(app: App, content_dir: Path) -> None:
    for text, says in [
        ("/hint python-gil", "`python-gil` has no hints"),
        ("/hint fast-power level:4", "`level` must be one of: 1, 2, 3."),
        ("/hint no-such-problem", "no-such-problem"),
        ("/hint", "problem"),
    ]:
        reply = await line(app, text)
        assert reply.tone is Tone.USER_ERROR and says in reply.body, (text, reply.body)
        assert reply.ephemeral
    rows = await app.db.fetch_all("SELECT count(*) FROM hints_taken")
    assert rows[0][0] == 0


async def test_a_bare_hint_walks_the_hints_of_the_problem_shown_last(app: App) -> None:
    nothing = await line(app, "/hint")
    assert nothing.tone is Tone.USER_ERROR and "Which problem?" in nothing.body
    await line(app, "/question fast-power")
    await line(app, "/question python-gil")  # not a coding problem: the last one shown is
    bodies = [(await line(app, "/hint")).body for _ in range(3)]
    assert bodies == ["hint 1", "hint 2", "hint 3"]
    done = await line(app, "/hint")
    assert done.tone is Tone.INFO and done.ephemeral
    assert done.body.startswith("You have taken all 3 hints of `fast-power`."), done.body
    again = await line(app, "/hint fast-power", Locale.ZH)
    assert again.body.startswith("`fast-power` 的 3 条提示你都已看过。"), again.body
    assert (await line(app, "/hint level:2")).body == "hint 2"  # a level shows one again


async def test_a_bare_hint_is_about_the_daily_problem_posted_here(app: App) -> None:
    admin = User("test", "a1", "admin", is_admin=True)
    for text in ("/schedule set 09:00 UTC days:none coding:daily", "/daily now"):
        done = await app.core.handle_line(text, user=admin, channel=WHERE, locale=Locale.EN)
        assert done.tone is Tone.INFO, done.body
    first = await line(app, "/hint")
    assert first.body == "hint 1" and first.title is not None and "Hint 1 of 3" in first.title
    assert (await line(app, "/hint")).body == "hint 2"
