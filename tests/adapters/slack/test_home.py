"""The App Home tab shows the member's progress, as `/me` does, rendered through the core:
streak, points, reviews due, per topic; with no grading sandbox running."""

from __future__ import annotations

from adapters.slack.modes import RunningSlack
from adapters.slack.people import PLATFORM
from bot.app import App
from bot.store.activity import ActKind
from bot.types import ChannelRef, User
from tests.adapters.slack.conftest import ADMIN, CHANNEL, MEMBER, block_texts, command_form
from tests.adapters.slack.stub import TEAM, SlackStub
from tests.adapters.slack.test_socket import event
from tests.fakes import FakeClock


async def test_app_home_shows_the_members_progress(
    socket_slack: RunningSlack, stub: SlackStub, bot_app: App, clock: FakeClock
) -> None:
    assert bot_app.grading is None
    member, here = User(PLATFORM, MEMBER, "member"), ChannelRef(PLATFORM, CHANNEL, TEAM)
    await bot_app.ledger.record(ActKind.QUIZ, member, here, "python-gil", correct=True,
                                points=10, at=clock.now(), dedupe="quiz:home")  # fmt: skip
    await bot_app.db.execute(f"INSERT INTO cards VALUES ('{PLATFORM}', ?, 'gpu-memory', '{{}}', ?)",
                             (MEMBER, clock.now().isoformat()))  # fmt: skip
    opened = event({"type": "app_home_opened", "user": MEMBER, "channel": "D1", "tab": "home"})
    await stub.envelope("events_api", opened)
    published = await stub.wait_call("views.publish")
    text = block_texts(published.params["view"]["blocks"])
    assert "Your progress" in text and "Sorry" not in text
    assert "Streak: 1 day(s) in a row (longest: 1)" in text
    assert "Today counts already" in text
    assert "10 here · 10 in all" in text and "1 now" in text
    assert "`python`: 1 / 1" in text


async def test_an_admins_export_arrives_as_a_file_in_their_direct_messages(
    socket_slack: RunningSlack, stub: SlackStub, bot_app: App, clock: FakeClock
) -> None:
    member, here = User(PLATFORM, MEMBER, "-1+1"), ChannelRef(PLATFORM, CHANNEL, TEAM)
    await bot_app.ledger.record(ActKind.QUIZ, member, here, "python-gil", correct=True,
                                points=10, at=clock.now(), dedupe="quiz:export")  # fmt: skip
    ack = await stub.envelope("slash_commands", command_form(stub, "export scores", ADMIN))
    assert ack["payload"]["response_type"] == "ephemeral"  # "working on it", then the reply
    reply = await stub.wait_response()
    assert reply["response_type"] == "ephemeral"
    text = block_texts(reply["blocks"])
    assert "The scores of 1 member(s), as CSV." in text
    assert f"scores-{TEAM}-2026-01-05.csv" in text
    done = await stub.wait_call("files.completeUploadExternal")
    assert done.params["channel_id"] == f"D{ADMIN}"  # private: the admin's DM with the app
    (data,) = stub.uploads.values()
    assert data.decode("utf-8-sig").splitlines()[1] == f"'-1+1,{MEMBER},10,1,1,0,1"
    assert stub.called("conversations.open")[0].params["users"] == ADMIN


async def test_a_member_cannot_export(
    socket_slack: RunningSlack, stub: SlackStub, bot_app: App
) -> None:
    await stub.envelope("slash_commands", command_form(stub, "export scores"))
    reply = await stub.wait_response()
    assert "Only admins can export the scores" in block_texts(reply["blocks"])
    assert not stub.uploads and not stub.called("files.getUploadURLExternal")
