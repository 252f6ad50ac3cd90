"""Slow work never delays an ack: past the budget, or for a slow command, the ack says
"working on it" at once and the reply follows through the response_url."""

from __future__ import annotations

import asyncio
import json
import urllib.parse

import aiohttp
import pytest

from adapters.slack.modes import RunningSlack
from bot import routes
from bot.core import Studybot
from bot.types import ChannelRef, Locale, Notice, Reply, User
from tests.adapters.slack.conftest import block_texts, command_form, post_signed
from tests.adapters.slack.stub import WAIT, SlackStub


async def test_work_past_the_ack_budget_is_acked_at_once_and_answered_later(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    release = asyncio.Event()
    real = Studybot.handle_line

    async def held(self: Studybot, line: str, *, user: User, channel: ChannelRef,
                   locale: Locale, notice: Notice | None = None) -> Reply:  # fmt: skip
        await release.wait()  # a grade that takes as long as the test says
        return await real(self, line, user=user, channel=channel, locale=locale, notice=notice)

    monkeypatch.setattr(Studybot, "handle_line", held)
    monkeypatch.setattr(routes, "ACK_BUDGET", 0.05)
    body = urllib.parse.urlencode(command_form(stub, "search 显存")).encode()
    status, _, ack = await asyncio.wait_for(post_signed(http, http_slack, body), WAIT)
    assert status == 200  # acked while the work is held: past the budget, not after the work
    assert json.loads(ack) == {"response_type": "ephemeral", "text": "Working on it…"}
    assert not stub.responses
    release.set()
    reply = await stub.wait_response()
    assert reply["response_type"] == "in_channel"
    assert "gpu-memory" in block_texts(reply["blocks"])
