"""Rating an explanation on Discord, through discord.py and the stub: `/answer` carries the
member's rating buttons (stateless custom_ids), a click answers privately with the next due
date, and the same click again changes nothing; `/review` deals the card when it is due.
The morning digest goes to the member's DM channel, opened over REST."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from tests.adapters.discord.conftest import Running
from tests.adapters.discord.stub import CHANNEL_ID, DiscordStub, message_json
from tests.adapters.discord.test_interactions import COMMAND, COMPONENT, answered, slash
from tests.fakes import FakeClock


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for row in message.get("components", []) for b in row["components"]]


async def test_rating_buttons_round_trip(bot: Running, clock: FakeClock) -> None:
    stub = bot.stub
    shown = await answered(stub, await stub.interact(COMMAND, slash("answer", id="python-gil")))
    rates = [b for b in buttons(shown) if b["custom_id"].startswith("rate:")]
    assert [b["label"] for b in rates] == ["Again", "Hard", "Good", "Easy"]
    assert rates[2]["custom_id"] == "rate:python-gil:0:3:7001"  # question, seen, Good, alice

    as_posted = message_json(CHANNEL_ID, stub.next_id(), shown)
    click = {"custom_id": rates[2]["custom_id"], "component_type": 2}
    rated = await answered(stub, await stub.interact(COMPONENT, click, message=as_posted))
    assert rated["flags"] & 64  # ephemeral
    assert rated["embeds"][0]["description"] == "Rated Good: next review in 2 days, on Wed 7 Jan."
    again = await answered(stub, await stub.interact(COMPONENT, click, message=as_posted))
    assert again["embeds"][0]["description"].startswith("Already rated")

    clock.advance(timedelta(days=2))
    dealt = await answered(stub, await stub.interact(COMMAND, slash("review")))
    assert dealt["flags"] & 64 and dealt["embeds"][0]["title"] == "Review: What is the GIL?"
    [explain] = [b for b in buttons(dealt) if b["custom_id"].startswith("review-explain:")]
    assert explain["custom_id"] == "review-explain:python-gil:7001"
    [registered] = [c for r in stub.calls("PUT", "/applications/") for c in r.body
                    if c["name"] == "review"]  # fmt: skip
    assert {o["name"] for o in registered["options"]} == {"digest", "retention"}


async def rate_again(stub: DiscordStub) -> None:
    """Alice opens python-gil's explanation and rates it Again: due in a day."""
    shown = await answered(stub, await stub.interact(COMMAND, slash("answer", id="python-gil")))
    again = next(b for b in buttons(shown) if b["custom_id"].startswith("rate:"))
    click = {"custom_id": again["custom_id"], "component_type": 2}
    as_posted = message_json(CHANNEL_ID, stub.next_id(), shown)
    await answered(stub, await stub.interact(COMPONENT, click, message=as_posted))


async def test_the_morning_digest_is_a_direct_message(bot: Running, clock: FakeClock) -> None:
    stub = bot.stub
    await rate_again(stub)
    on = await answered(stub, await stub.interact(COMMAND, slash("review", digest="on")))
    assert on["embeds"][0]["description"].startswith("Every morning at 08:00")

    clock.advance(timedelta(days=1))  # 09:00 UTC: past the member's 08:00, the card due
    assert await bot.app.digest.tick() == 1
    [opened] = stub.calls("POST", "/users/@me/channels")
    assert str(opened.body["recipient_id"]) == "7001"
    dm = stub.dms["7001"]
    [sent] = stub.calls("POST", f"/channels/{dm}/messages")
    assert "`python-gil`" in sent.body["embeds"][0]["description"]


async def test_a_member_who_accepts_no_dms_is_not_retried_all_day(
    bot: Running, clock: FakeClock
) -> None:
    stub = bot.stub
    await rate_again(stub)
    await answered(stub, await stub.interact(COMMAND, slash("review", digest="on")))
    stub.closed_dms.add("7001")
    clock.advance(timedelta(days=1))
    assert await bot.app.digest.tick() == 0
    clock.advance(timedelta(hours=1))
    assert await bot.app.digest.tick() == 0
    assert len(stub.calls("POST", "/users/@me/channels")) == 1
