"""Socket Mode: the real bolt app over slack_sdk's aiohttp websocket client, connected to the
local Slack: envelopes and their acks, Slack's request to reconnect, events."""

from __future__ import annotations

from typing import Any

from prometheus_client import CollectorRegistry

from adapters.slack.modes import RunningSlack, running_slack
from adapters.slack.people import PLATFORM
from adapters.telemetry.prometheus import PrometheusMetrics
from bot.app import App, open_app
from bot.settings import Settings
from bot.store.db import Database
from bot.types import Action, ActionKind, ChannelRef, Reply
from tests.adapters.slack.conftest import APP_TOKEN, CHANNEL, MEMBER, block_texts, command_form
from tests.adapters.slack.conftest import settings as slack_settings
from tests.adapters.slack.stub import BOT_USER, TEAM, SlackStub
from tests.fakes import FakeClock
from tests.waiting import until


def event(inner: dict[str, Any]) -> dict[str, Any]:
    return {"token": "legacy", "team_id": TEAM, "api_app_id": "A1", "type": "event_callback",
            "event_id": "Ev1", "event_time": 1700000000, "event": inner}  # fmt: skip


async def test_a_slash_command_envelope_is_acked_with_the_reply(
    socket_slack: RunningSlack, stub: SlackStub
) -> None:
    opened = stub.called("apps.connections.open")
    assert len(opened) == 1 and opened[0].authorization == f"Bearer {APP_TOKEN}"
    ack = await stub.envelope("slash_commands", command_form(stub, "search allreduce"))
    assert ack["payload"]["response_type"] == "in_channel"
    assert "ring-allreduce" in block_texts(ack["payload"]["blocks"])


async def test_a_disconnect_envelope_reconnects_and_requests_keep_flowing(
    socket_slack: RunningSlack, stub: SlackStub
) -> None:
    await stub.disconnect()
    await stub.wait_socket(2)
    await stub.wait_call("apps.connections.open", 2)
    ack = await stub.envelope("slash_commands", command_form(stub, "topics"))
    assert "distributed" in block_texts(ack["payload"]["blocks"])


async def test_app_home_shows_the_workspace_schedules_and_help(
    socket_slack: RunningSlack, stub: SlackStub, bot_app: App
) -> None:
    await stub.envelope("slash_commands", command_form(stub, "help"))  # warm-up: auth.test
    admin = command_form(stub, "schedule set 09:00 Asia/Shanghai", "UADMIN")
    await stub.envelope("slash_commands", admin)
    opened = event({"type": "app_home_opened", "user": MEMBER, "channel": "D1", "tab": "home"})
    ack = await stub.envelope("events_api", opened)
    assert "payload" not in ack or not ack["payload"]
    published = await stub.wait_call("views.publish")
    assert published.params["user_id"] == MEMBER
    view = published.params["view"]
    assert view["type"] == "home" and len(view["blocks"]) <= 100
    text = block_texts(view["blocks"])
    assert f"<#{CHANNEL}>: 09:00 Asia/Shanghai, daily" in text
    assert "`/study search &lt;query&gt;`" in text


async def test_code_mentioned_in_a_problem_thread_is_submitted_for_that_problem(
    socket_slack: RunningSlack, stub: SlackStub, bot_app: App
) -> None:
    submit = Action(ActionKind.SUBMIT_SOLUTION, "Submit", "fast-power")
    problem = Reply(title="数值的整数次方", body="Implement it.", actions=(submit,))
    slack = bot_app.platforms.get(PLATFORM)
    assert slack is not None
    posted = await slack.send(ChannelRef(PLATFORM, CHANNEL, TEAM), problem)
    code = "```python\ndef my_pow(x, n):\n    return x ** n if n &gt;= 0 else 1 / x ** -n\n```"
    mention = event({"type": "app_mention", "user": MEMBER, "channel": CHANNEL,
                     "text": f"<@{BOT_USER}> {code}", "ts": "1700000100.000001",
                     "thread_ts": posted.message_id})  # fmt: skip
    await stub.envelope("events_api", mention)
    looked_up = await stub.wait_call("conversations.replies")
    assert looked_up.params["ts"] == posted.message_id
    kinds = {"chat.postMessage", "chat.postEphemeral"}
    answer = await stub.wait_until(
        lambda: next((c for c in stub.calls if c.method in kinds
                      and c.params.get("thread_ts") == posted.message_id), None)
    )  # fmt: skip
    assert answer.params["channel"] == CHANNEL


async def test_a_mention_outside_a_thread_runs_a_command_and_answers_in_its_thread(
    socket_slack: RunningSlack, stub: SlackStub
) -> None:
    mention = event({"type": "app_mention", "user": MEMBER, "channel": CHANNEL,
                     "text": f"<@{BOT_USER}> search GIL", "ts": "1700000200.000001"})  # fmt: skip
    await stub.envelope("events_api", mention)
    posted = await stub.wait_call("chat.postMessage")
    assert posted.params["thread_ts"] == "1700000200.000001"
    assert "python-gil" in block_texts(posted.params["blocks"])


async def test_a_reconnection_is_counted_once_per_new_connection(
    stub: SlackStub, settings: Settings, loaded_database: Database, clock: FakeClock
) -> None:
    """The first connection is not a reconnect; each one Slack asks for after it is."""
    registry = CollectorRegistry()
    metrics = PrometheusMetrics(registry)
    reconnects = "studybot_platform_reconnects_total"
    async with (
        open_app(settings, clock=clock, grading=False, metrics=metrics) as app,
        running_slack(app, slack_settings(stub, socket=True)),
    ):
        await stub.wait_socket()
        assert registry.get_sample_value(reconnects, {"platform": PLATFORM}) is None
        await stub.disconnect()
        await stub.wait_socket(2)
        await until(lambda: registry.get_sample_value(reconnects, {"platform": PLATFORM}) == 1)
        assert PLATFORM in app.platforms
