"""Moderator roles on Discord, through the real discord.py client and the local Discord: with
`DISCORD_MODERATOR_ROLE_IDS`, a member holding a listed role moderates without Manage
Messages -- pages the drafts and clicks their buttons -- while a member holding another
role is refused, on the command and on a click. The stub's guild announces no such role,
as a server whose roles the bot has not cached: the ids are read from the interaction's
member payload."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import App
from tests.adapters.discord.conftest import Running, connected
from tests.adapters.discord.stub import DiscordStub
from tests.adapters.discord.test_community import REPORT, attached, button_ids, text_of
from tests.adapters.discord.test_interactions import COMMAND, answered, slash
from tests.adapters.discord.test_mistakes import MOD, click

MODERATORS, OTHER = "4401", "4402"  # role ids


@pytest.fixture
async def with_roles(stub: DiscordStub, app: App) -> AsyncIterator[Running]:
    """The bot with the role `MODERATORS` (and a role not listed) configured as moderating."""
    async with connected(stub, app, moderator_role_ids=frozenset({int(MODERATORS), 4499})) as bot:
        yield bot


async def imported(stub: DiscordStub) -> None:
    sent = attached(stub, "report.txt", REPORT.read_bytes(), "text/plain; charset=utf-8")
    assert "3 new draft(s)" in text_of(await answered(stub, await stub.interact(COMMAND, sent)))


async def test_a_member_holding_a_moderator_role_reviews_drafts_and_another_role_is_refused(
    with_roles: Running,
) -> None:
    stub = with_roles.stub
    sent = attached(stub, "report.txt", REPORT.read_bytes(), "text/plain; charset=utf-8")
    assert "3 new draft(s)" in text_of(await answered(stub, await stub.interact(COMMAND, sent)))

    refused = await answered(stub, await stub.interact(COMMAND, slash("drafts"), member=MOD,
                                                       roles=(OTHER,)))  # fmt: skip
    assert refused["flags"] == 64 and "moderators" in text_of(refused)
    first = await answered(stub, await stub.interact(COMMAND, slash("drafts"), member=MOD,
                                                     roles=(OTHER, MODERATORS)))  # fmt: skip
    assert first["flags"] == 64 and first["embeds"][0]["title"].startswith("Draft 1/3")
    assert button_ids(first)[-1] == "draft-page:2"

    nope = await answered(stub, await click(stub, "draft-page:2", first, member=MOD,
                                            roles=(OTHER,)))  # fmt: skip
    assert "moderators" in text_of(nope)
    page = await answered(stub, await click(stub, "draft-page:2", first, member=MOD,
                                            roles=(MODERATORS,)))  # fmt: skip
    assert page["embeds"][0]["title"].startswith("Draft 2/3")
