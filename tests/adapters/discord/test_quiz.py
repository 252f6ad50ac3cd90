"""A daily quiz on Discord, through discord.py and the stub: the post's option buttons, a
member's private answer, the tally edited in place (PATCH), the reveal in the thread; the
right option is found by the letter the post shows it under, which here is not A."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.quiz import QuizPost, check_for
from bot.types import QuickCheck
from tests.adapters.discord.conftest import Running
from tests.adapters.discord.stub import CHANNEL_ID, Json, message_json
from tests.adapters.discord.test_interactions import (
    COMMAND,
    COMPONENT,
    answered,
    schedule_set,
    slash,
)
from tests.adapters.discord.test_review import buttons
from tests.content.test_new_format import write_item
from tests.fakes import FakeClock
from tests.quiz.shown import letters, right_letter


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    write_item(root)  # kv-cache-size, with two quick checks, and python-gil
    return root


async def test_a_daily_quiz_is_answered_tallied_and_revealed(bot: Running,
                                                            clock: FakeClock) -> None:  # fmt: skip
    stub = bot.stub
    await bot.scheduler.start()
    saved = await stub.interact(COMMAND, schedule_set("09:30", answer="+1h", topic="inference"),
                                admin=True)  # fmt: skip
    await answered(stub, saved)
    clock.advance(timedelta(minutes=30))
    await bot.scheduler.tick()
    [post] = stub.calls("POST", f"/channels/{CHANNEL_ID}/messages")
    routes = [b["custom_id"] for b in post.body["components"][0]["components"]]
    assert [r.split(":")[0] for r in routes[:4]] == ["quiz"] * 4
    assert "reveal:kv-cache-size" not in routes
    posted = next(m for m in stub.messages.values() if m.get("nonce") == post.body["nonce"])
    shown = post.body["embeds"][0]["description"]
    right = right_letter(shown, await asked(bot, routes[0]))
    assert right != "A"  # this post does not show the right option first
    labels = [b["label"] for b in post.body["components"][0]["components"]][:4]
    assert labels == ["A", "B", "C", "D"]
    # The hidden id carries the place each option is shown at, not where the file lists it:
    # the right option's is its letter's place, not the file's 0.
    assert [r.rpartition(":")[2] for r in routes[:4]] == ["0", "1", "2", "3"]
    assert routes["ABCD".index(right)].endswith(f":{'ABCD'.index(right)}")

    click = {"custom_id": routes[0], "component_type": 2}  # A: wrong in this post
    iid = await stub.interact(COMPONENT, click, message=message_json(CHANNEL_ID, posted["id"],
                                                                       post.body))  # fmt: skip
    private = await answered(stub, iid)
    assert private["flags"] & 64  # ephemeral
    assert private["embeds"][0]["title"].startswith(("✅ Right", "❌ Not this one"))
    assert private["embeds"][0]["title"].startswith("❌ Not this one: A.")
    await bot.app.tallies.settled()
    [edit] = stub.calls("PATCH", f"/channels/{CHANNEL_ID}/messages/{posted['id']}")
    assert "1 answered so far" in edit.body["embeds"][0]["description"]
    assert "1 answered so far, 0 right." in edit.body["embeds"][0]["description"]
    assert letters(edit.body["embeds"][0]["description"]) == letters(shown)  # the same order
    assert [b["custom_id"] for b in edit.body["components"][0]["components"]][:4] == routes[:4]

    again = await answered(stub, await stub.interact(
        COMPONENT, click, message=message_json(CHANNEL_ID, posted["id"], post.body)))  # fmt: skip
    assert "answered this one already" in again["embeds"][0]["description"]
    assert "already (A)" in again["embeds"][0]["description"]
    pressed = {"custom_id": routes["ABCD".index(right)], "component_type": 2}
    theirs = await answered(stub, await stub.interact(
        COMPONENT, pressed, message=message_json(CHANNEL_ID, posted["id"], post.body),
        member=("7002", "bob")))  # fmt: skip
    assert theirs["embeds"][0]["title"].startswith(f"✅ Right: {right}.")

    clock.advance(timedelta(hours=1))
    await bot.scheduler.tick()
    [answer] = stub.calls("POST", f"/channels/{posted['id']}/messages")
    fields = {f["name"]: f["value"] for f in answer.body["embeds"][0].get("fields", [])}
    assert "answered so far" in fields["Quick check:"] and "✅ **" in fields["Quick check:"]
    assert "2 answered so far, 1 right." in fields["Quick check:"]
    assert f"✅ **{right}.**" in fields["Quick check:"]  # the reveal names the letter shown


async def asked(bot: Running, route: str) -> QuickCheck:
    """The quick check a post's quiz button (`quiz:<schedule>:<slot>:<position>`) is of."""
    post = QuizPost.parse(route.removeprefix("quiz:").rpartition(":")[0])
    question = await bot.app.store.get("kv-cache-size")
    assert post is not None and question is not None
    check = check_for(question, post.slot)
    assert check is not None
    return check


async def dealt_review(bot: Running, clock: FakeClock, member: tuple[str, str]) -> Json:
    """`member` rates kv-cache-size Again, and a day later `/review` deals its quick check."""
    stub = bot.stub
    shown = await answered(stub, await stub.interact(
        COMMAND, slash("answer", id="kv-cache-size"), member=member))  # fmt: skip
    again = next(b for b in buttons(shown) if b["custom_id"].startswith("rate:"))
    await answered(stub, await stub.interact(
        COMPONENT, {"custom_id": again["custom_id"], "component_type": 2},
        message=message_json(CHANNEL_ID, stub.next_id(), shown), member=member))  # fmt: skip
    clock.advance(timedelta(days=1))
    return await answered(stub, await stub.interact(COMMAND, slash("review"), member=member))


async def test_a_review_quick_check_is_answered_by_the_letter_shown(
    bot: Running, clock: FakeClock
) -> None:
    stub = bot.stub
    question = await bot.app.store.get("kv-cache-size")
    assert question is not None
    check = question.quiz[1]  # reviewed once: the second check is asked

    for member, pressing in ((("7001", "alice"), "right"), (("7002", "bob"), "A")):
        dealt = await dealt_review(bot, clock, member)
        assert dealt["flags"] & 64 and check.question.en in dealt["embeds"][0]["description"]
        right = right_letter(dealt["embeds"][0]["description"], check)
        assert right != "A"  # this prompt does not show the right option first
        choices = [b for b in buttons(dealt) if b["custom_id"].startswith("review-check:")]
        assert [b["label"] for b in choices] == ["A", "B", "C", "D"]
        carried = [b["custom_id"].split(":")[4] for b in choices]  # review-check:id:seen:check:…
        assert carried == ["0", "1", "2", "3"]  # the place shown, not the file's index
        letter = right if pressing == "right" else "A"
        button = choices["ABCD".index(letter)]
        said = await answered(stub, await stub.interact(
            COMPONENT, {"custom_id": button["custom_id"], "component_type": 2},
            message=message_json(CHANNEL_ID, stub.next_id(), dealt), member=member))  # fmt: skip
        title = said["embeds"][0]["title"]
        assert title.startswith(f"✅ Right: {right}." if letter == right else "❌ Not this one: A.")


async def test_posts_speak_the_servers_language_and_private_replies_the_members(
    bot: Running, clock: FakeClock
) -> None:
    """A Chinese server set up by an English-speaking admin posts in Chinese; an English
    member's private verdict is English throughout (title, option, why); `lang:both` adds
    English to the titles and the quick check, and the reveal follows."""
    stub = bot.stub
    await bot.scheduler.start()
    saved = await stub.interact(COMMAND, schedule_set("09:30", answer="+1h", topic="inference"),
                                admin=True, guild_locale="zh-CN")  # fmt: skip
    described = await answered(stub, saved)
    assert "Language" in str(described) and "中文" in str(described)  # the admin reads English
    clock.advance(timedelta(minutes=30))
    await bot.scheduler.tick()
    [post] = stub.calls("POST", f"/channels/{CHANNEL_ID}/messages")
    check = await asked(bot, post.body["components"][0]["components"][0]["custom_id"])
    embed = post.body["embeds"][0]
    assert embed["title"] == "KV Cache 占多少显存？"
    assert check.question.zh in embed["description"] and check.question.en not in str(embed)

    posted = next(m for m in stub.messages.values() if m.get("nonce") == post.body["nonce"])
    click = {"custom_id": post.body["components"][0]["components"][0]["custom_id"],
             "component_type": 2}  # fmt: skip
    private = (await answered(stub, await stub.interact(
        COMPONENT, click, message=message_json(CHANNEL_ID, posted["id"], post.body),
        locale="en-GB", guild_locale="zh-CN")))["embeds"][0]  # fmt: skip
    picked = check.options[_file_index(check, embed["description"], "A")]
    assert private["title"].endswith(f"A. {picked.text.en}")
    assert picked.why.en in private["description"] and picked.why.zh not in private["description"]

    lang = {"name": "set", "type": 1, "options": [{"name": "lang", "type": 3, "value": "both"}]}
    command = {"id": "9", "name": "schedule", "type": 1, "options": [lang]}
    both = await stub.interact(COMMAND, command, admin=True, guild_locale="zh-CN")
    assert "中文 + English" in str(await answered(stub, both))
    clock.advance(timedelta(hours=1))
    await bot.scheduler.tick()
    [answer] = stub.calls("POST", f"/channels/{posted['id']}/messages")
    revealed = str(answer.body["embeds"][0])
    assert "KV Cache 占多少显存？ / How much memory" in revealed
    assert check.question.zh in revealed and check.question.en in revealed


def _file_index(check: QuickCheck, shown: str, letter: str) -> int:
    """Where the option shown under `letter` is in the file."""
    line = next(x for x in shown.splitlines() if x.startswith(f"**{letter}.**"))
    text = line.removeprefix(f"**{letter}.** ")
    return next(i for i, o in enumerate(check.options) if text in (o.text.zh, o.text.en))
