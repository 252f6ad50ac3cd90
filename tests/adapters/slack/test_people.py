"""Who is asking, from users.info: cached for a while, then looked up again; a failed lookup
never stops a command."""

from __future__ import annotations

import aiohttp
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.people import People
from bot.types import Locale
from tests.adapters.slack.conftest import ADMIN, BOT_TOKEN, LISTED, MEMBER
from tests.adapters.slack.stub import SlackStub


async def test_admin_rights_and_language_are_cached_briefly(stub: SlackStub) -> None:
    now = [0.0]
    async with aiohttp.ClientSession() as session:
        client = AsyncWebClient(token=BOT_TOKEN, base_url=stub.api_url, session=session)
        people = People(client, frozenset({LISTED}), ttl=60, clock=lambda: now[0])
        assert (await people.get(ADMIN)).user.is_admin
        assert not (await people.get(MEMBER)).user.is_admin
        assert (await people.get(LISTED)).user.is_admin
        assert (await people.get("UZH")).locale is Locale.ZH
        assert people.peek_locale("UZH") is Locale.ZH
        assert len(stub.called("users.info")) == 4
        stub.users[MEMBER]["is_owner"] = True  # promoted: seen once the cache expires
        assert not (await people.get(MEMBER)).user.is_admin
        now[0] = 61.0
        assert (await people.get(MEMBER)).user.is_admin
        assert len(stub.called("users.info")) == 5

        stub.refuse("users.info", "ratelimited")
        stranger = await people.get("UNEW", "newbie")
        assert stranger.user.display_name == "newbie" and not stranger.user.is_admin
