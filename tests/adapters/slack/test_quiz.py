"""A daily quiz on Slack, through slack-bolt and the stub: the post's option buttons, a
member's private answer, the tally edited in place (chat.update), the reveal in the thread."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import aiohttp
import pytest

from adapters.slack.modes import RunningSlack
from adapters.slack.people import PLATFORM
from bot.app import App
from bot.types import ChannelRef, Invocation, User
from tests.adapters.slack.conftest import CHANNEL, block_texts, interactive, post_signed
from tests.adapters.slack.stub import TEAM, SlackStub
from tests.content.test_new_format import write_item
from tests.fakes import FakeClock

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

    status, _, _ = await post_signed(http, http_slack, clicked(quiz[1], stub, 1))
    assert status == 200
    private = await stub.wait_response()
    assert private["response_type"] == "ephemeral"
    assert "Right" in block_texts(private["blocks"]) or "Not this one" in block_texts(
        private["blocks"])  # fmt: skip
    await bot_app.tallies.settled()
    [update] = stub.called("chat.update")
    ts = next(ts for (channel, ts) in stub.messages if channel == CHANNEL)
    assert update.params["ts"] == ts and "1 answered so far" in block_texts(update.params["blocks"])

    clock.advance(timedelta(hours=1))
    await bot_app.scheduler.tick()
    answer = stub.called("chat.postMessage")[1].params
    assert answer["thread_ts"] == ts
    assert "1 answered so far" in block_texts(answer["blocks"])
