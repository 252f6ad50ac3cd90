"""Rating an explanation on Slack, through slack-bolt and the stub: `/study answer` carries
the member's rating buttons, a click answers privately with the next due date, the same click
again and another member's click change nothing, and `/study review` deals the card when due.
The morning digest is posted to the member's id, which Slack delivers as a direct message."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import aiohttp

from adapters.slack.modes import RunningSlack
from bot.app import App
from tests.adapters.slack.conftest import (
    ADMIN,
    CHANNEL,
    MEMBER,
    block_texts,
    interactive,
    post_signed,
)
from tests.adapters.slack.stub import TEAM, SlackStub
from tests.adapters.slack.test_http import study
from tests.fakes import FakeClock


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for b in message["blocks"] if b["type"] == "actions" for e in b["elements"]]


def clicked(button: dict[str, Any], stub: SlackStub, who: str, n: int) -> bytes:
    return interactive({"type": "block_actions", "user": {"id": who, "name": who.lower()},
                        "team": {"id": TEAM}, "channel": {"id": CHANNEL}, "trigger_id": f"t{n}",
                        "response_url": stub.response_url(), "api_app_id": "A1",
                        "token": "legacy", "container": {"type": "message"},
                        "actions": [{**button, "type": "button", "block_id": "b",
                                     "action_ts": "1"}]})  # fmt: skip


async def press(http: aiohttp.ClientSession, slack: RunningSlack, stub: SlackStub,
                button: dict[str, Any], who: str, n: int) -> str:  # fmt: skip
    """The private reply to a click, the `n`th response the stub received."""
    status, _, _ = await post_signed(http, slack, clicked(button, stub, who, n))
    assert status == 200
    reply = await stub.wait_response(n)
    assert reply["response_type"] == "ephemeral"
    return block_texts(reply["blocks"])


async def test_rating_buttons_round_trip(http: aiohttp.ClientSession, http_slack: RunningSlack,
                                         stub: SlackStub, clock: FakeClock) -> None:  # fmt: skip
    shown = await study(http, http_slack, stub, "answer python-gil")
    rates = [b for b in buttons(shown) if b["action_id"].startswith("rate:")]
    assert [b["text"]["text"] for b in rates] == ["Again", "Hard", "Good", "Easy"]
    good = rates[2]
    assert good["action_id"] == f"rate:python-gil:0:3:{MEMBER}"

    said = await press(http, http_slack, stub, good, MEMBER, 1)
    assert "Rated Good: next review in 2 days, on Wed 7 Jan." in said
    assert "Already rated" in await press(http, http_slack, stub, good, MEMBER, 2)
    assert "someone else's review" in await press(http, http_slack, stub, rates[0], ADMIN, 3)

    clock.advance(timedelta(days=2))
    dealt = await study(http, http_slack, stub, "review")
    assert "Review: What is the GIL?" in block_texts(dealt["blocks"])
    assert any(b["action_id"] == f"review-explain:python-gil:{MEMBER}" for b in buttons(dealt))


async def test_the_morning_digest_goes_to_the_members_direct_messages(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub, bot_app: App,
    clock: FakeClock,
) -> None:  # fmt: skip
    shown = await study(http, http_slack, stub, "answer python-gil")
    again = next(b for b in buttons(shown) if b["action_id"].startswith("rate:"))
    assert "Rated Again" in await press(http, http_slack, stub, again, MEMBER, 1)
    on = await study(http, http_slack, stub, "review digest:on")
    assert "Every morning at 08:00" in block_texts(on["blocks"])

    clock.advance(timedelta(days=1))
    assert await bot_app.digest.tick() == 1
    [dm] = stub.called("chat.postMessage")
    assert dm.params["channel"] == MEMBER
    assert "`python-gil`" in block_texts(dm.params["blocks"])
    assert [channel for channel, _ in stub.messages] == ["D" + MEMBER[1:]]  # a DM, as on Slack
