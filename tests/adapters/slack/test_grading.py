"""Code graded for real: the whole bot as `studybot run` opens it (grading sandbox included)
behind the bolt app in HTTP mode. Code arrives through the modal, through a mention in a
problem's thread, or inline with `/study run`, a slow command whose ack never waits. Code
that waits behind others is told its place, privately, before its verdict."""

from __future__ import annotations

import asyncio
import json
import urllib.parse

import aiohttp

from adapters.slack.modes import RunningSlack
from adapters.slack.people import PLATFORM
from bot.app import App
from bot.types import ChannelRef, Invocation
from tests.adapters.slack.conftest import (
    CHANNEL,
    MEMBER,
    block_texts,
    command_form,
    interactive,
    post_signed,
)
from tests.adapters.slack.stub import BOT_USER, TEAM, WAIT, SlackStub
from tests.adapters.slack.test_modals import submission
from tests.grading.busy import busy

SOLUTION = """def my_pow(x: float, n: int) -> float:
    if n < 0:
        x, n = 1.0 / x, -n
    result, base = 1.0, x
    while n:
        if n & 1:
            result *= base
        n >>= 1
        if n:
            base *= base
    return result
"""


async def test_code_from_the_modal_is_graded_and_the_verdict_follows(
    http: aiohttp.ClientSession, graded_slack: RunningSlack, stub: SlackStub
) -> None:
    form = command_form(stub, "submit fast-power")
    await post_signed(http, graded_slack, urllib.parse.urlencode(form).encode())
    view = (await stub.wait_call("views.open")).params["view"]
    status, _, _ = await post_signed(http, graded_slack, interactive(submission(view, SOLUTION)))
    assert status == 200
    verdict = await stub.wait_response()
    assert verdict["blocks"][0]["text"]["text"].startswith("✅ Accepted")


async def test_code_mentioned_in_the_daily_problems_thread_is_graded_there(
    http: aiohttp.ClientSession, graded_slack: RunningSlack, stub: SlackStub, graded_app: App
) -> None:
    asked = await graded_app.core.handle(Invocation("question", {"id": "fast-power"}))
    where = ChannelRef(PLATFORM, CHANNEL, TEAM)
    slack = graded_app.platforms.get(PLATFORM)
    assert slack is not None
    posted = await slack.send(where, asked)  # as the scheduler posts it
    escaped = SOLUTION.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    event = {"token": "legacy", "team_id": TEAM, "api_app_id": "A1", "type": "event_callback",
             "event_id": "Ev2", "event_time": 1700000000,
             "event": {"type": "app_mention", "user": MEMBER, "channel": CHANNEL,
                       "text": f"<@{BOT_USER}> ```{escaped}```", "ts": "1700000300.000001",
                       "thread_ts": posted.message_id}}  # fmt: skip
    body = json.dumps(event).encode()
    status, _, _ = await post_signed(http, graded_slack, body, content_type="application/json")
    assert status == 200
    answer = await stub.wait_until(
        lambda: next((c for c in stub.called("chat.postMessage")
                      if c.params.get("thread_ts") == posted.message_id), None)
    )  # fmt: skip
    assert answer.params["blocks"][0]["text"]["text"].startswith("✅ Accepted")


async def test_run_is_slow_so_it_is_acked_at_once_and_its_output_follows(
    http: aiohttp.ClientSession, graded_slack: RunningSlack, stub: SlackStub, graded_app: App
) -> None:
    body = urllib.parse.urlencode(command_form(stub, "run print(6 * 7)")).encode()
    async with busy(graded_app.grading):  # the run cannot start until the others are done
        status, _, ack = await asyncio.wait_for(post_signed(http, graded_slack, body), WAIT)
        assert status == 200  # acked while the run is held: the ack did not wait for it
        assert json.loads(ack) == {"response_type": "ephemeral", "text": "Working on it…"}
    output = await stub.wait_until(lambda: next(
        (r for _, r in stub.responses if "42" in block_texts(r["blocks"])), None))  # fmt: skip
    assert "42" in block_texts(output["blocks"])


async def test_app_home_shows_what_the_person_solved(
    http: aiohttp.ClientSession, graded_slack: RunningSlack, stub: SlackStub
) -> None:
    form = command_form(stub, "submit fast-power")
    await post_signed(http, graded_slack, urllib.parse.urlencode(form).encode())
    view = (await stub.wait_call("views.open")).params["view"]
    await post_signed(http, graded_slack, interactive(submission(view, SOLUTION)))
    await stub.wait_response()  # the verdict: accepted
    opened = {"token": "legacy", "team_id": TEAM, "api_app_id": "A1", "type": "event_callback",
              "event_id": "Ev3", "event_time": 1700000000,
              "event": {"type": "app_home_opened", "user": MEMBER, "channel": "D1",
                        "tab": "home"}}  # fmt: skip
    body = json.dumps(opened).encode()
    status, _, _ = await post_signed(http, graded_slack, body, content_type="application/json")
    assert status == 200
    published = await stub.wait_call("views.publish")
    text = block_texts(published.params["view"]["blocks"])
    assert "Your progress" in text
    assert "`fast-power`" in text and "Sorry" not in text


async def test_code_that_waits_is_told_its_place_privately_then_its_verdict_follows(
    http: aiohttp.ClientSession, graded_slack: RunningSlack, stub: SlackStub, graded_app: App
) -> None:
    form = command_form(stub, "submit fast-power")
    await post_signed(http, graded_slack, urllib.parse.urlencode(form).encode())
    view = (await stub.wait_call("views.open")).params["view"]
    async with busy(graded_app.grading):
        await post_signed(http, graded_slack, interactive(submission(view, SOLUTION)))
        notice = await stub.wait_response()
        assert notice["response_type"] == "ephemeral"
        assert "Queued for a grader, 1 ahead of yours" in block_texts(notice["blocks"])
    verdict = await stub.wait_response(2)
    assert verdict["blocks"][0]["text"]["text"].startswith("✅ Accepted")
