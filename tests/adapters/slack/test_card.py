"""`/study me` on Slack: the progress as blocks at once, then the card uploaded with
files_upload_v2 (its three steps, against the stub) into the member's direct messages with the
app, since a private reply's file has nowhere else to go; the App Home tab stays text only.
The weekly summary's chart is uploaded to its channel after the post."""

from __future__ import annotations

import io
from datetime import timedelta

from PIL import Image

from adapters.slack.modes import RunningSlack
from adapters.slack.people import PLATFORM
from bot.app import App
from bot.store.activity import ActKind
from bot.types import ChannelRef, Invocation, User
from tests.adapters.slack.conftest import CHANNEL, MEMBER, block_texts, command_form
from tests.adapters.slack.stub import TEAM, SlackStub
from tests.adapters.slack.test_socket import event
from tests.fakes import FakeClock


async def practised(app: App, clock: FakeClock) -> None:
    member, here = User(PLATFORM, MEMBER, "member"), ChannelRef(PLATFORM, CHANNEL, TEAM)
    await app.ledger.record(ActKind.QUIZ, member, here, "python-gil", correct=True, points=10,
                            at=clock.now(), dedupe="quiz:card")  # fmt: skip


async def test_me_uploads_the_card_to_the_members_direct_messages(
    socket_slack: RunningSlack, stub: SlackStub, bot_app: App, clock: FakeClock
) -> None:
    await practised(bot_app, clock)
    ack = await stub.envelope("slash_commands", command_form(stub, "me"))
    reply = ack["payload"] if "blocks" in ack["payload"] else await stub.wait_response()
    assert "Your progress" in block_texts(reply["blocks"])
    done = await stub.wait_call("files.completeUploadExternal")
    assert done.params["channel_id"] == f"D{MEMBER}"  # private: the member's DM with the app
    assert "card.png" in str(stub.called("files.getUploadURLExternal")[0].params)
    (data,) = stub.uploads.values()
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"


async def test_app_home_shows_the_progress_as_text_and_uploads_nothing(
    socket_slack: RunningSlack, stub: SlackStub, bot_app: App, clock: FakeClock
) -> None:
    await practised(bot_app, clock)
    opened = event({"type": "app_home_opened", "user": MEMBER, "channel": "D1", "tab": "home"})
    await stub.envelope("events_api", opened)
    published = await stub.wait_call("views.publish")
    text = block_texts(published.params["view"]["blocks"])
    assert "Your progress" in text and "card.png" not in text
    assert not stub.called("files.getUploadURLExternal")


async def test_the_weekly_summary_uploads_its_chart_to_the_channel(
    http_slack: RunningSlack, stub: SlackStub, bot_app: App, clock: FakeClock
) -> None:
    admin = User(PLATFORM, "UADMIN", "admin", is_admin=True)
    options = {"action": "set", "time": "09:30", "timezone": "UTC", "summary": "weekly"}
    await bot_app.core.handle(Invocation("schedule", options, user=admin,
                                         channel=ChannelRef(PLATFORM, CHANNEL, TEAM)))  # fmt: skip
    clock.set(clock.now() - timedelta(days=1))  # Sunday: last week
    await practised(bot_app, clock)
    clock.set(clock.now() + timedelta(days=1, minutes=30))  # Monday at the post time
    await bot_app.scheduler.start()
    await bot_app.scheduler.tick()
    done = await stub.wait_call("files.completeUploadExternal")
    assert done.params["channel_id"] == CHANNEL
    assert "week.png" in str(stub.called("files.getUploadURLExternal")[0].params)
    assert any("Last week here" in str(c.params) for c in stub.called("chat.postMessage"))
