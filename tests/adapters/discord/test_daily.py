"""Daily posts through REST: the question in the channel, the answer in a thread on it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.errors import DeliveryError
from bot.types import ChannelRef, MessageRef, Reply
from tests.adapters.discord.conftest import Running
from tests.adapters.discord.stub import CHANNEL_ID, GUILD_ID
from tests.adapters.discord.test_interactions import COMMAND, answered, schedule_set
from tests.fakes import FakeClock


async def test_the_daily_question_is_posted_and_its_answer_follows_in_a_thread(
    bot: Running, clock: FakeClock
) -> None:
    stub = bot.stub
    await bot.scheduler.start()
    saved = await stub.interact(COMMAND, schedule_set("09:30", answer="+1h"), admin=True)
    await answered(stub, saved)
    clock.advance(timedelta(minutes=30))
    await bot.scheduler.tick()
    [post] = stub.calls("POST", f"/channels/{CHANNEL_ID}/messages")
    assert post.body["nonce"] and post.body["enforce_nonce"] is True
    assert post.body["components"][0]["components"][0]["custom_id"].startswith("reveal:")
    clock.advance(timedelta(hours=1))
    await bot.scheduler.tick()
    question_id = next(m for m in stub.messages.values() if m["nonce"] == post.body["nonce"])["id"]
    [thread] = stub.calls("POST", f"/channels/{CHANNEL_ID}/messages/{question_id}/threads")
    assert thread.body["name"].startswith("Answer: ")
    [answer] = stub.calls("POST", f"/channels/{question_id}/messages")
    assert answer.body["embeds"][0]["title"] == thread.body["name"]


async def test_a_resend_with_the_same_nonce_is_one_message_and_a_thread_is_reused(
    bot: Running,
) -> None:
    channel = ChannelRef("discord", CHANNEL_ID, GUILD_ID)
    adapter = bot.client.adapter
    first = await adapter.send(channel, Reply("Q", title="Q"), nonce="s1:2026-01-05:question")
    again = await adapter.send(channel, Reply("Q", title="Q"), nonce="s1:2026-01-05:question")
    assert first == again
    for _ in range(2):  # the second time the thread exists already: Discord says 160004
        await adapter.send(channel, Reply("A", title="A"), thread_of=first, nonce="s1:a")
    assert len(bot.stub.calls("POST", f"/channels/{first.message_id}/messages")) == 2
    assert len(bot.stub.threads) == 1


@pytest.mark.parametrize(("where", "status"), [("no-access", "403"), ("no-message", "404")])
async def test_a_refused_post_is_a_permanent_delivery_error(
    bot: Running, where: str, status: str
) -> None:
    bot.stub.forbidden.add("4400")
    channel = ChannelRef("discord", "4400" if where == "no-access" else CHANNEL_ID)
    gone = MessageRef(channel, "1") if where == "no-message" else None
    with pytest.raises(DeliveryError) as refused:
        await bot.client.adapter.send(channel, Reply("x"), thread_of=gone)
    assert refused.value.permanent and status in str(refused.value)


async def test_the_daily_coding_problem_carries_a_submit_button(
    bot: Running, clock: FakeClock
) -> None:
    stub = bot.stub
    await bot.scheduler.start()
    await answered(
        stub,
        await stub.interact(COMMAND, schedule_set("09:30", days="mon", coding="mon"), admin=True),
    )
    await answered(stub, await stub.interact(COMMAND, {"id": "9", "name": "daily", "type": 1,
                   "options": [{"name": "now", "type": 1}]}, admin=True))  # fmt: skip
    [post] = stub.calls("POST", f"/channels/{CHANNEL_ID}/messages")
    routes = [b["custom_id"] for b in post.body["components"][0]["components"]]
    assert routes == ["submit:fast-power", "hint:fast-power:1", "reveal:fast-power"]
