"""Shards split across bot processes: two bots, as `studybot run` builds them on one database,
one running shard 0 of 2 and the other shard 1 of 2, against the local Discord.

Discord sends a server's events on shard `(guild_id >> 22) % shard_count`; the stub does too.
Each bot identifies with its own shard, learns only its own server, and only it answers a
slash command from there.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.app import App, open_app
from bot.logs import ContextFilter
from bot.settings import Settings
from tests.adapters.discord.conftest import Running, connected, settings_for
from tests.adapters.discord.stub import CHANNEL_ID, GUILD_ID, TOKEN, DiscordStub
from tests.adapters.discord.test_interactions import COMMAND, answered, slash
from tests.fakes import FakeClock
from tests.waiting import PATIENCE

# A server on shard 1 of 2 (GUILD_ID, 2200, is on shard 0 for any count).
OTHER_GUILD, OTHER_CHANNEL = str((1 << 22) + 2200), "3301"


def shard_settings(stub: DiscordStub, ids: str) -> Settings:
    values = {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE_URL": stub.api,
              "DISCORD_GATEWAY_URL": stub.ws_url, "DISCORD_SHARD_COUNT": "2",
              "DISCORD_SHARD_IDS": ids}  # fmt: skip
    return Settings.from_mapping(values)


@pytest.fixture
async def second_app(settings: Settings, app: App, clock: FakeClock) -> AsyncIterator[App]:
    """A second bot process's app, on the same database as `app`."""
    async with open_app(settings, clock=clock, rng=random.Random(8), grading=False) as opened:
        yield opened


@pytest.fixture
async def two_shards(
    stub: DiscordStub, app: App, second_app: App
) -> AsyncIterator[tuple[Running, Running]]:
    stub.add_guild(OTHER_GUILD, OTHER_CHANNEL)
    async with (
        connected(stub, app, sharded=True, shard_count=2, shard_ids=(0,)) as first,
        connected(stub, second_app, sharded=True, shard_count=2, shard_ids=(1,)) as second,
    ):
        yield first, second


def test_the_settings_give_the_runner_what_the_tests_connect_with() -> None:
    stub = DiscordStub()
    stub.url = "http://127.0.0.1:1"
    for ids, shard in (("0", (0,)), ("1", (1,))):
        assert shard_settings(stub, ids).discord == settings_for(
            stub, sharded=True, shard_count=2, shard_ids=shard
        )


async def test_each_process_identifies_with_its_shard_and_sees_only_its_servers(
    two_shards: tuple[Running, Running],
) -> None:
    first, second = two_shards
    identified = sorted(op["d"]["shard"] for op in first.stub.gateway.ops if op["op"] == 2)
    assert identified == [[0, 2], [1, 2]]
    assert first.client.shard_count == second.client.shard_count == 2
    assert list(first.client.shards) == [0] and list(second.client.shards) == [1]
    assert [g.id for g in first.client.guilds] == [int(GUILD_ID)]
    assert [g.id for g in second.client.guilds] == [int(OTHER_GUILD)]


async def test_a_slash_command_is_answered_by_the_process_running_its_servers_shard(
    two_shards: tuple[Running, Running],
) -> None:
    stub = two_shards[0].stub
    for guild, channel, mine in ((GUILD_ID, CHANNEL_ID, 0), (OTHER_GUILD, OTHER_CHANNEL, 1)):
        seen = [asyncio.create_task(bot.client.wait_for("interaction")) for bot in two_shards]
        iid = await stub.interact(COMMAND, slash("question", id="python-gil"),
                                  guild_id=guild, channel_id=channel)  # fmt: skip
        message: dict[str, Any] = await answered(stub, iid)
        assert message["embeds"][0]["title"] == "What is the GIL?"
        interaction = await asyncio.wait_for(seen[mine], PATIENCE)
        assert interaction.guild_id == int(guild) and str(interaction.id) == iid
        assert not seen[1 - mine].done(), "the other process saw the server's interaction"
        seen[1 - mine].cancel()


async def test_an_interactions_log_lines_name_the_shard_it_came_in_on(
    two_shards: tuple[Running, Running], caplog: pytest.LogCaptureFixture
) -> None:
    """The log's `shard` field, as `bot.logs` stamps it on every record."""
    stub = two_shards[0].stub
    caplog.handler.addFilter(ContextFilter("bot"))
    caplog.set_level(logging.INFO, logger="bot.core")
    for guild, channel, shard in ((GUILD_ID, CHANNEL_ID, 0), (OTHER_GUILD, OTHER_CHANNEL, 1)):
        caplog.clear()
        iid = await stub.interact(COMMAND, slash("question", id="python-gil"),
                                  guild_id=guild, channel_id=channel)  # fmt: skip
        await answered(stub, iid)
        lines = [r for r in caplog.records if r.name == "bot.core"]
        assert [r.getMessage().split()[0] for r in lines] == ["/question", "/question"]
        assert {getattr(r, "shard", None) for r in lines} == {shard}
        assert len({getattr(r, "interaction", None) for r in lines}) == 1
