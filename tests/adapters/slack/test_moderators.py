"""Listed moderators on Slack, through slack-bolt in HTTP mode and the local Slack: with
`SLACK_MODERATOR_USER_IDS`, a listed user who is no workspace admin pages the drafts and
clicks their buttons, while a member is refused; the listed user gains no admin right."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.modes import RunningSlack, running_slack
from adapters.slack.people import People
from bot.app import App
from tests.adapters.slack.conftest import BOT_TOKEN, MEMBER, block_texts, post_signed, settings
from tests.adapters.slack.stub import SlackStub
from tests.adapters.slack.test_community import button, press
from tests.adapters.slack.test_http import study
from tests.adapters.slack.test_mistakes import sent

REPORT = Path(__file__).parents[2] / "community" / "reports" / "new_questions.txt"
MODERATOR = "UMODERATOR"


@pytest.fixture
async def moderated(stub: SlackStub, bot_app: App) -> AsyncIterator[RunningSlack]:
    """The bot in HTTP mode with `MODERATOR` (a member, not an admin) listed as moderating."""
    stub.add_user(MODERATOR)
    listed = dataclasses.replace(settings(stub), moderator_user_ids=frozenset({MODERATOR}))
    async with running_slack(bot_app, listed, host="127.0.0.1") as running:
        yield running


async def test_a_listed_user_reviews_drafts_and_a_member_is_refused(
    http: aiohttp.ClientSession, moderated: RunningSlack, stub: SlackStub
) -> None:
    await study(http, moderated, stub, "import", MEMBER)
    view = (await stub.wait_call("views.open")).params["view"]
    status, _, _ = await post_signed(http, moderated, sent(view, MEMBER, text=REPORT.read_text()))
    assert status == 200
    assert "3 new draft(s)" in block_texts((await stub.wait_response(1))["blocks"])

    refused = await study(http, moderated, stub, "drafts", MEMBER)
    assert "moderators" in block_texts(refused["blocks"])
    first = await study(http, moderated, stub, "drafts", MODERATOR)
    assert "Draft 1/3" in block_texts(first["blocks"])
    await press(http, moderated, stub, button(first, "draft-page:2"), MEMBER, 2)
    assert "moderators" in block_texts((await stub.wait_response(2))["blocks"])
    await press(http, moderated, stub, button(first, "draft-page:2"), MODERATOR, 3)
    assert "Draft 2/3" in block_texts((await stub.wait_response(3))["blocks"])


async def test_a_listed_moderator_is_no_admin_even_when_the_lookup_fails(stub: SlackStub) -> None:
    stub.add_user(MODERATOR)
    async with aiohttp.ClientSession() as session:
        client = AsyncWebClient(token=BOT_TOKEN, base_url=stub.api_url, session=session)
        people = People(client, moderators=frozenset({MODERATOR}))
        found = (await people.get(MODERATOR)).user
        assert found.is_moderator and not found.is_admin
        assert not (await people.get(MEMBER)).user.is_moderator
        stub.refuse("users.info", "ratelimited")
        unlooked = (await People(client, moderators=frozenset({MODERATOR})).get(MODERATOR)).user
        assert unlooked.is_moderator and not unlooked.is_admin
