"""HTTP mode: the real bolt app served by aiohttp, signed requests from a test client, the Web
API and response_urls answered by the local Slack."""

from __future__ import annotations

import json
import time
import urllib.parse
from typing import Any

import aiohttp

from adapters.slack.modes import RunningSlack
from tests.adapters.slack.conftest import (
    ADMIN,
    BOT_TOKEN,
    CHANNEL,
    LISTED,
    MEMBER,
    block_texts,
    command_form,
    interactive,
    post_signed,
    sign,
)
from tests.adapters.slack.stub import TEAM, SlackStub


async def study(
    http: aiohttp.ClientSession, running: RunningSlack, stub: SlackStub, text: str,
    user: str = MEMBER,
) -> dict[str, Any]:  # fmt: skip
    body = urllib.parse.urlencode(command_form(stub, text, user)).encode()
    status, kind, answer = await post_signed(http, running, body)
    assert status == 200, answer
    return json.loads(answer) if kind == "application/json" else {"text": answer}


async def test_a_signed_search_is_answered_in_the_ack_with_blocks(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    ack = await study(http, http_slack, stub, "search 显存")
    assert ack["response_type"] == "in_channel"
    assert ack["text"]  # the plain fallback for notifications
    assert ack["blocks"][0]["type"] == "header"
    assert "gpu-memory" in block_texts(ack["blocks"])
    assert stub.called("users.info")[0].params["user"] == MEMBER
    assert stub.called("users.info")[0].authorization == f"Bearer {BOT_TOKEN}"


async def test_a_question_carries_a_reveal_button_and_the_click_answers_ephemerally(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    ack = await study(http, http_slack, stub, "question gpu-memory")
    buttons = [e for b in ack["blocks"] if b["type"] == "actions" for e in b["elements"]]
    assert [(b["action_id"], b["value"]) for b in buttons] == [("reveal:gpu-memory", "gpu-memory")]

    response_url = stub.response_url()
    click = {"type": "block_actions", "user": {"id": MEMBER, "name": "member"},
             "team": {"id": TEAM}, "channel": {"id": CHANNEL}, "trigger_id": "t-2",
             "response_url": response_url, "api_app_id": "A1", "token": "legacy",
             "container": {"type": "message"}, "actions": [{**buttons[0], "type": "button",
             "block_id": "b", "action_ts": "1"}]}  # fmt: skip
    status, _, _ = await post_signed(http, http_slack, interactive(click))
    assert status == 200
    answer = await stub.wait_response()
    assert answer["response_type"] == "ephemeral" and answer["replace_original"] is False
    assert "减小batch" in block_texts(answer["blocks"])


async def test_the_language_button_answers_in_the_other_language(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    ack = await study(http, http_slack, stub, "question python-gil")
    buttons = [e for b in ack["blocks"] if b["type"] == "actions" for e in b["elements"]]
    switch = next(b for b in buttons if b["action_id"].startswith("question-in:"))
    assert switch["text"]["text"] == "中文" and switch["value"] == "zh:python-gil"
    click = {"type": "block_actions", "user": {"id": MEMBER, "name": "member"},
             "team": {"id": TEAM}, "channel": {"id": CHANNEL}, "trigger_id": "t-3",
             "response_url": stub.response_url(), "api_app_id": "A1", "token": "legacy",
             "container": {"type": "message"}, "actions": [{**switch, "type": "button",
             "block_id": "b", "action_ts": "1"}]}  # fmt: skip
    status, _, _ = await post_signed(http, http_slack, interactive(click))
    assert status == 200
    reply = await stub.wait_response()
    assert "Python全局解释器锁" in block_texts(reply["blocks"])


async def test_usage_in_replies_names_the_slack_command(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    ack = await study(http, http_slack, stub, "answer")
    assert ack["response_type"] == "ephemeral"
    assert "`/study answer &lt;id&gt; [lang:…]`" in block_texts(ack["blocks"])


async def test_a_bad_signature_and_a_stale_timestamp_are_refused_with_401(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    body = urllib.parse.urlencode(command_form(stub, "topics")).encode()
    forged = sign(body, secret="not-the-secret")
    assert (await post_signed(http, http_slack, body, headers=forged))[0] == 401
    stale = sign(body, timestamp=int(time.time()) - 301)
    assert (await post_signed(http, http_slack, body, headers=stale))[0] == 401
    tampered = sign(body)
    assert (await post_signed(http, http_slack, body + b"x", headers=tampered))[0] == 401
    assert (await post_signed(http, http_slack, body))[0] == 200
    assert not stub.called("users.info")[1:]  # only the genuine request reached a listener


async def test_schedule_changes_are_refused_to_members_and_allowed_to_admins(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    refused = await study(http, http_slack, stub, "schedule set 09:00 Asia/Shanghai", MEMBER)
    assert refused["response_type"] == "ephemeral"
    assert "Only members who can manage" in block_texts(refused["blocks"])
    shown = await study(http, http_slack, stub, "schedule show", MEMBER)
    assert "no daily question yet" in block_texts(shown["blocks"])

    saved = await study(http, http_slack, stub, "schedule set 09:00 Asia/Shanghai", ADMIN)
    assert "Saved" in block_texts(saved["blocks"])
    listed = await study(http, http_slack, stub, "schedule pause", LISTED)  # SLACK_ADMIN_USER_IDS
    assert "Paused" in block_texts(listed["blocks"])


async def test_chinese_speakers_get_chinese(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    ack = await study(http, http_slack, stub, "topics", "UZH")
    assert ack["blocks"][0]["text"]["text"] == "主题"


async def test_the_events_url_answers_slacks_challenge(
    http: aiohttp.ClientSession, http_slack: RunningSlack
) -> None:
    body = json.dumps({"type": "url_verification", "challenge": "c-123", "token": "x"}).encode()
    status, _, text = await post_signed(http, http_slack, body, content_type="application/json")
    assert status == 200 and "c-123" in text
