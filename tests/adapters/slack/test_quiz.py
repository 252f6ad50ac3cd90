"""A daily quiz on Slack, through slack-bolt and the stub: the post's option buttons, a
member's private answer, the tally edited in place (chat.update), the reveal in the thread;
the right option is found by the letter the post shows it under, which here is not A."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import aiohttp
import pytest

from adapters.slack.modes import RunningSlack
from adapters.slack.people import PLATFORM
from bot.app import App
from bot.quiz import QuizPost, check_for
from bot.types import ChannelRef, Invocation, QuickCheck, User
from tests.adapters.slack.conftest import CHANNEL, LISTED, block_texts, interactive, post_signed
from tests.adapters.slack.stub import TEAM, SlackStub
from tests.adapters.slack.test_http import study
from tests.adapters.slack.test_review import buttons as all_buttons
from tests.adapters.slack.test_review import press
from tests.content.test_new_format import write_item
from tests.fakes import FakeClock
from tests.quiz.shown import letters, right_letter

MEMBER = "UMEMBER"
ADMIN = User(PLATFORM, "UADMIN", "admin", is_admin=True)


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    write_item(root)  # kv-cache-size, with two quick checks, and python-gil
    return root


def clicked(button: dict[str, object], stub: SlackStub, n: int) -> bytes:
    return interactive({"type": "block_actions", "user": {"id": MEMBER, "name": "member"},
                        "team": {"id": TEAM}, "channel": {"id": CHANNEL}, "trigger_id": f"t{n}",
                        "response_url": stub.response_url(), "api_app_id": "A1",
                        "token": "legacy", "container": {"type": "message"},
                        "actions": [{**button, "type": "button", "block_id": "b",
                                     "action_ts": "1"}]})  # fmt: skip


async def test_a_daily_quiz_is_answered_tallied_and_revealed(
    http: aiohttp.ClientSession,
    http_slack: RunningSlack,
    stub: SlackStub,
    bot_app: App,
    clock: FakeClock,
) -> None:
    where = ChannelRef(PLATFORM, CHANNEL, TEAM)
    options = {"action": "set", "time": "09:30", "timezone": "UTC", "answer": "+1h",
               "topic": "inference"}  # fmt: skip
    await bot_app.core.handle(Invocation("schedule", options, user=ADMIN, channel=where))
    await bot_app.scheduler.start()
    due = bot_app.scheduler.next_due()
    assert due is not None
    clock.set(due)
    await bot_app.scheduler.tick()
    question = stub.called("chat.postMessage")[0].params
    buttons = [e for b in question["blocks"] if b["type"] == "actions" for e in b["elements"]]
    quiz = [b for b in buttons if b["action_id"].startswith("quiz:")]
    assert [b["text"]["text"] for b in quiz] == ["A", "B", "C", "D"]
    shown = block_texts(question["blocks"])
    right = right_letter(shown, await asked(bot_app, quiz[0]["action_id"]))
    assert right != "A"  # this post does not show the right option first
    # What the client is sent (action id and value) carries the place each option is shown
    # at, not where the file lists it: the right option's is its letter's place.
    assert [b["action_id"].rpartition(":")[2] for b in quiz] == ["0", "1", "2", "3"]
    assert [b["value"].rpartition(":")[2] for b in quiz] == ["0", "1", "2", "3"]
    assert quiz["ABCD".index(right)]["action_id"].endswith(f":{'ABCD'.index(right)}")

    status, _, _ = await post_signed(http, http_slack, clicked(quiz[0], stub, 1))  # A: wrong
    assert status == 200
    private = await stub.wait_response()
    assert private["response_type"] == "ephemeral"
    assert "Right" in block_texts(private["blocks"]) or "Not this one" in block_texts(
        private["blocks"])  # fmt: skip
    assert "Not this one: A." in block_texts(private["blocks"])
    await bot_app.tallies.settled()
    [update] = stub.called("chat.update")
    ts = next(ts for (channel, ts) in stub.messages if channel == CHANNEL)
    assert update.params["ts"] == ts and "1 answered so far" in block_texts(update.params["blocks"])
    assert "1 answered so far, 0 right." in block_texts(update.params["blocks"])
    assert letters(block_texts(update.params["blocks"])) == letters(shown)  # the same order

    theirs = await press(http, http_slack, stub, quiz["ABCD".index(right)], LISTED, 2)
    assert f"Right: {right}." in theirs

    clock.advance(timedelta(hours=1))
    await bot_app.scheduler.tick()
    answer = stub.called("chat.postMessage")[1].params
    assert answer["thread_ts"] == ts
    assert "answered so far" in block_texts(answer["blocks"])
    assert "2 answered so far, 1 right." in block_texts(answer["blocks"])
    assert f"✅ *{right}.*" in block_texts(answer["blocks"])  # the reveal names the letter shown


async def asked(app: App, action_id: str) -> QuickCheck:
    """The quick check a post's quiz button (`quiz:<schedule>:<slot>:<position>`) is of."""
    post = QuizPost.parse(action_id.removeprefix("quiz:").rpartition(":")[0])
    question = await app.store.get("kv-cache-size")
    assert post is not None and question is not None
    check = check_for(question, post.slot)
    assert check is not None
    return check


async def test_a_review_quick_check_is_answered_by_the_letter_shown(
    http: aiohttp.ClientSession,
    http_slack: RunningSlack,
    stub: SlackStub,
    bot_app: App,
    clock: FakeClock,
) -> None:
    question = await bot_app.store.get("kv-cache-size")
    assert question is not None
    check = question.quiz[1]  # reviewed once: the second check is asked
    responses = 0
    for who, pressing in ((MEMBER, "right"), (LISTED, "A")):
        shown = await study(http, http_slack, stub, "answer kv-cache-size", who)
        again = next(b for b in all_buttons(shown) if b["action_id"].startswith("rate:"))
        responses += 1
        assert "Rated Again" in await press(http, http_slack, stub, again, who, responses)
        clock.advance(timedelta(days=1))
        dealt = await study(http, http_slack, stub, "review", who)
        assert check.question.en in block_texts(dealt["blocks"])
        right = right_letter(block_texts(dealt["blocks"]), check)
        assert right != "A"  # this prompt does not show the right option first
        choices = [b for b in all_buttons(dealt) if b["action_id"].startswith("review-check:")]
        assert [b["text"]["text"] for b in choices] == ["A", "B", "C", "D"]
        carried = [b["action_id"].split(":")[4] for b in choices]  # review-check:id:seen:check:…
        assert carried == ["0", "1", "2", "3"]  # the place shown, not the file's index
        letter = right if pressing == "right" else "A"
        responses += 1
        said = await press(http, http_slack, stub, choices["ABCD".index(letter)], who, responses)
        assert (f"Right: {right}." if letter == right else "Not this one: A.") in said
