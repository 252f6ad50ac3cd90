"""The real slack-bolt app, in HTTP or Socket Mode, against the local Slack of stub.py."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import urllib.parse
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from adapters.slack.modes import RunningSlack, running_slack
from bot.app import App
from bot.settings import Secret, SlackSettings
from tests.adapters.slack.stub import TEAM, SlackStub

SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
BOT_TOKEN = "xoxb-111-222-secretbottokenvalue"
APP_TOKEN = "xapp-1-A111-333-secretapptokenvalue"
MEMBER, ADMIN, LISTED = "UMEMBER", "UADMIN", "ULISTED"
CHANNEL = "C1"


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """slack_sdk reads HTTP(S)_PROXY itself and ignores NO_PROXY: loopback must not be proxied."""
    for name in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "http_proxy",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
        "SLACK_SIGNING_SECRET",
        "SLACK_APP_TOKEN",
        "SLACK_BOT_TOKEN",
    ):
        monkeypatch.delenv(name, raising=False)  # fmt: skip


@pytest.fixture
async def stub() -> AsyncIterator[SlackStub]:
    slack = SlackStub()
    await slack.start()
    for user, admin in ((MEMBER, False), (ADMIN, True), (LISTED, False)):
        slack.add_user(user, admin=admin)
    slack.add_user("UZH", locale="zh-CN")
    yield slack
    await slack.close()


@pytest.fixture
def bot_app(app: App) -> App:
    """The bot as `open_app` builds it over the test bank (tests/conftest.py), without a
    grading sandbox (`graded_app` has one)."""
    return app


def settings(stub: SlackStub, *, socket: bool = False) -> SlackSettings:
    return SlackSettings(
        bot_token=Secret(BOT_TOKEN),
        app_token=Secret(APP_TOKEN) if socket else None,
        signing_secret=None if socket else Secret(SIGNING_SECRET),
        http_port=0,
        admin_user_ids=frozenset({LISTED}),
        api_base_url=stub.api_url,
    )


@pytest.fixture
async def graded_slack(stub: SlackStub, graded_app: App) -> AsyncIterator[RunningSlack]:
    async with running_slack(graded_app, settings(stub), host="127.0.0.1") as running:
        yield running


@pytest.fixture
async def http_slack(stub: SlackStub, bot_app: App) -> AsyncIterator[RunningSlack]:
    async with running_slack(bot_app, settings(stub), host="127.0.0.1") as running:
        yield running


@pytest.fixture
async def socket_slack(stub: SlackStub, bot_app: App) -> AsyncIterator[RunningSlack]:
    async with running_slack(bot_app, settings(stub, socket=True)) as running:
        await stub.wait_socket()
        yield running


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def sign(body: bytes, timestamp: int | None = None, secret: str = SIGNING_SECRET) -> dict[str, str]:
    """Slack's request signature over the exact bytes sent."""
    ts = str(int(time.time()) if timestamp is None else timestamp)
    base = b"v0:" + ts.encode() + b":" + body
    digest = hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": f"v0={digest}"}


def command_form(stub: SlackStub, text: str, user: str = MEMBER) -> dict[str, str]:
    return {
        "token": "legacy", "team_id": TEAM, "team_domain": "test", "channel_id": CHANNEL,
        "channel_name": "study", "user_id": user, "user_name": user.lower(),
        "command": "/study", "text": text, "api_app_id": "A1", "is_enterprise_install": "false",
        "response_url": stub.response_url(), "trigger_id": "trigger-1",
    }  # fmt: skip


def interactive(payload: dict[str, Any]) -> bytes:
    return urllib.parse.urlencode({"payload": json.dumps(payload)}).encode()


async def post_signed(
    http: aiohttp.ClientSession,
    running: RunningSlack,
    body: bytes,
    *,
    headers: dict[str, str] | None = None,
    content_type: str = "application/x-www-form-urlencoded",
) -> tuple[int, str, str]:
    """POST to the bolt app's /slack/events; (status, content type, body)."""
    url = f"http://127.0.0.1:{running.port}/slack/events"
    sent = {"Content-Type": content_type, **(headers if headers is not None else sign(body))}
    async with http.post(url, data=body, headers=sent) as response:
        return response.status, response.content_type, await response.text()


def block_texts(blocks: list[dict[str, Any]]) -> str:
    """Every text in a list of blocks, one string: what a person would read."""
    out: list[str] = []
    for block in blocks:
        for key in ("text",):
            if isinstance(block.get(key), dict):
                out.append(block[key]["text"])
        out += [f["text"] for f in block.get("fields", [])]
        out += [e.get("text", {}).get("text", "") if isinstance(e.get("text"), dict)
                else e.get("text", "") for e in block.get("elements", [])]  # fmt: skip
    return "\n".join(out)
