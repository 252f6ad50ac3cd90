"""Running the Discord side of `studybot run`: log in, register, serve until cancelled.

`serve` is one coroutine the CLI runs beside the scheduler (and other platforms) in one event
loop. It points discord.py at the configured REST and gateway addresses (process-wide class
attributes: one Discord connection per process), logs in, and stays connected until cancelled;
the client attaches itself to the core's `Platforms` whenever its session is ready or resumed,
and is detached here when it stops. A rejected token or a privileged
intent the portal has not granted stops it with a `ConfigError` naming the setting.
"""

from __future__ import annotations

from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

from adapters.discord.client import ShardedStudyClient, StudyClient
from bot.core import Studybot
from bot.errors import ConfigError
from bot.platforms import Platforms
from bot.settings import DiscordSettings


def use_endpoints(settings: DiscordSettings) -> None:
    """Point discord.py at the configured REST API and gateway (Discord's own by default)."""
    discord.http.Route.BASE = settings.api_base_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def make_client(core: Studybot, settings: DiscordSettings, **options: Any) -> StudyClient:
    """One gateway connection, or the shards the settings give this process: all of
    `DISCORD_SHARD_COUNT`, or those of `DISCORD_SHARD_IDS` (other processes run the rest);
    with neither, as many as Discord recommends."""
    if not settings.sharded:
        return StudyClient(core, settings, **options)
    if settings.shard_count is not None:
        options |= {"shard_count": settings.shard_count,
                    "shard_ids": list(settings.shards_here)}  # fmt: skip
    return ShardedStudyClient(core, settings, **options)


async def serve(
    core: Studybot, platforms: Platforms, settings: DiscordSettings, **options: Any
) -> None:
    use_endpoints(settings)
    await run_client(make_client(core, settings, platforms=platforms, **options), settings)


async def run_client(client: StudyClient, settings: DiscordSettings) -> None:
    """Log `client` in and keep it connected until cancelled; detach it however it stops."""
    async with client:
        try:
            await client.login(settings.token.reveal())
        except discord.LoginFailure:
            raise ConfigError("DISCORD_TOKEN: Discord rejected the token (401); copy the "
                              "bot token again from the developer portal") from None  # fmt: skip
        try:
            await client.connect()
        except discord.PrivilegedIntentsRequired:
            raise ConfigError("DISCORD_MESSAGE_CONTENT: the Message Content intent is not "
                              "enabled for this bot in the developer portal") from None  # fmt: skip
        finally:
            client.detach()
