"""Daily posts through the ChatAdapter port: chat.postMessage, the answer in the question's
thread, long replies split, refusals sorted into retried, transient and permanent."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from datetime import timedelta
from typing import Any, TypeVar

import pytest

from adapters.slack.modes import RunningSlack
from adapters.slack.people import PLATFORM
from adapters.slack.render import BLOCKS_PER_MESSAGE, SECTION_LIMIT
from bot.app import App
from bot.errors import DeliveryError
from bot.types import ChannelRef, Invocation, Reply, User
from tests.adapters.slack.conftest import APP_TOKEN, BOT_TOKEN, CHANNEL, SIGNING_SECRET
from tests.adapters.slack.stub import TEAM, SlackStub
from tests.fakes import FakeClock

T = TypeVar("T")
WHERE = ChannelRef(PLATFORM, CHANNEL, TEAM)
ADMIN = User(PLATFORM, "UADMIN", "admin", is_admin=True)


async def schedule_here(bot_app: App, answer: str = "+1h") -> None:
    options = {"action": "set", "time": "09:30", "timezone": "UTC", "answer": answer}
    reply = await bot_app.core.handle(Invocation("schedule", options, user=ADMIN, channel=WHERE))
    assert reply.title, reply.body


async def test_the_daily_question_is_posted_and_its_answer_follows_in_the_thread(
    http_slack: RunningSlack, stub: SlackStub, bot_app: App, clock: FakeClock
) -> None:
    await schedule_here(bot_app)
    await bot_app.scheduler.start()
    due = bot_app.scheduler.next_due()
    assert due is not None
    clock.set(due)
    await bot_app.scheduler.tick()
    question = stub.called("chat.postMessage")[0].params
    assert question["channel"] == CHANNEL and "thread_ts" not in question
    assert question["text"] and question["blocks"][0]["type"] == "header"
    assert any(b["type"] == "actions" for b in question["blocks"])

    clock.advance(timedelta(hours=1))
    await bot_app.scheduler.tick()
    answer = stub.called("chat.postMessage")[1].params
    first_ts = next(ts for (channel, ts) in stub.messages if channel == CHANNEL)
    assert answer["thread_ts"] == first_ts
    assert answer["blocks"][0]["text"]["text"].startswith("Answer:")


async def test_a_long_answer_is_split_into_messages_within_slack_limits(
    http_slack: RunningSlack, stub: SlackStub, bot_app: App, clock: FakeClock
) -> None:
    body = "\n\n".join(f"**Part {n}.** " + "显存与带宽 " * 400 for n in range(80))
    start = clock.now()
    sending = bot_app.platforms.get(PLATFORM).send(WHERE, Reply(title="Long", body=body))
    ref = await paced(clock, sending)
    posts = [c.params for c in stub.called("chat.postMessage")]
    assert len(posts) > 1 and ref.message_id == "1700000000.000001"
    # One channel takes a message a second after a burst of three (Slack's pace).
    assert clock.now() - start == timedelta(seconds=max(len(posts) - 3, 0))
    for post in posts:
        assert post["text"] and len(post["blocks"]) <= BLOCKS_PER_MESSAGE
        assert all(len(b["text"]["text"]) <= SECTION_LIMIT for b in post["blocks"]
                   if b["type"] == "section")  # fmt: skip
    text = "".join(b["text"]["text"] for p in posts for b in p["blocks"] if b["type"] == "section")
    assert text.count("*Part ") == 80 and "**" not in text


async def paced(clock: FakeClock, sending: Coroutine[Any, Any, T]) -> T:
    """Await `sending`, moving the clock to each turn it waits for under the channel's
    pace."""
    task = asyncio.ensure_future(sending)
    while not task.done():
        await asyncio.wait({task}, timeout=0.01)  # (the stub answers over a socket)
        if clock.sleeping_until:
            clock.set(clock.sleeping_until[0])
    return task.result()


async def test_a_rate_limited_post_is_retried_after_retry_after(
    http_slack: RunningSlack, stub: SlackStub, bot_app: App
) -> None:
    stub.refuse("chat.postMessage", "ratelimited", status=429, retry_after=0)
    ref = await bot_app.platforms.get(PLATFORM).send(WHERE, Reply(body="hello"))
    assert len(stub.called("chat.postMessage")) == 2
    assert ref.message_id == "1700000000.000001"


@pytest.mark.parametrize(("error", "permanent"), [("channel_not_found", True),
                                                  ("not_in_channel", True),
                                                  ("internal_error", False)])  # fmt: skip
async def test_refusals_become_delivery_errors(
    http_slack: RunningSlack, stub: SlackStub, bot_app: App, error: str, permanent: bool,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    caplog.set_level(logging.DEBUG)
    stub.refuse("chat.postMessage", error)
    with pytest.raises(DeliveryError, match=error) as raised:
        await bot_app.platforms.get(PLATFORM).send(WHERE, Reply(body="hello"))
    assert raised.value.permanent is permanent
    for secret in (BOT_TOKEN, APP_TOKEN, SIGNING_SECRET):
        assert secret not in caplog.text and secret not in str(raised.value)


async def test_a_channel_the_bot_left_pauses_the_schedule_and_says_why(
    http_slack: RunningSlack, stub: SlackStub, bot_app: App, clock: FakeClock
) -> None:
    await schedule_here(bot_app)
    await bot_app.scheduler.start()
    stub.refuse("chat.postMessage", "not_in_channel")
    due = bot_app.scheduler.next_due()
    assert due is not None
    clock.set(due)
    await bot_app.scheduler.tick()
    shown = await bot_app.core.handle(Invocation("schedule", {"action": "show"}, channel=WHERE))
    status = next(f.value for f in shown.fields if f.name == "Status")
    assert "not_in_channel" in status
