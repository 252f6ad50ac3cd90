"""A daily quiz on Discord, through discord.py and the stub: the post's option buttons, a
member's private answer, the tally edited in place (PATCH), the reveal in the thread."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.adapters.discord.conftest import Running
from tests.adapters.discord.stub import CHANNEL_ID, message_json
from tests.adapters.discord.test_interactions import COMMAND, COMPONENT, answered, schedule_set
from tests.content.test_new_format import write_item
from tests.fakes import FakeClock


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

    click = {"custom_id": routes[0], "component_type": 2}
    iid = await stub.interact(COMPONENT, click, message=message_json(CHANNEL_ID, posted["id"],
                                                                       post.body))  # fmt: skip
    private = await answered(stub, iid)
    assert private["flags"] & 64  # ephemeral
    assert private["embeds"][0]["title"].startswith(("✅ Right", "❌ Not this one"))
    await bot.app.tallies.settled()
    [edit] = stub.calls("PATCH", f"/channels/{CHANNEL_ID}/messages/{posted['id']}")
    assert "1 answered so far" in edit.body["embeds"][0]["description"]
    assert [b["custom_id"] for b in edit.body["components"][0]["components"]][:4] == routes[:4]

    again = await answered(stub, await stub.interact(
        COMPONENT, click, message=message_json(CHANNEL_ID, posted["id"], post.body)))  # fmt: skip
    assert "answered this one already" in again["embeds"][0]["description"]

    clock.advance(timedelta(hours=1))
    await bot.scheduler.tick()
    [answer] = stub.calls("POST", f"/channels/{posted['id']}/messages")
    fields = {f["name"]: f["value"] for f in answer.body["embeds"][0].get("fields", [])}
    assert "1 answered so far" in fields["Quick check:"] and "✅ **" in fields["Quick check:"]
