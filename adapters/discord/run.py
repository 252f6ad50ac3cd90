"""Running the Discord side of `studybot run`: log in, register, serve until cancelled.

`serve` is one coroutine the CLI runs beside the scheduler (and other platforms) in one event
loop. It points discord.py at the configured REST and gateway addresses (process-wide class
attributes: one Discord connection per process), logs in, and stays connected until cancelled;
the client attaches itself to the core's `Platforms` whenever its session is ready or resumed,
and is detached here when it stops. A rejected token or a privileged
intent the portal has not granted stops it with a `ConfigError` naming the setting; Discord
unreachable is tried again until it answers.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

from adapters.discord.client import ShardedStudyClient, StudyClient
from adapters.discord.pacing import paced
from adapters.network import is_network_error, retry_delays, summary
from bot.core import Studybot
from bot.errors import ConfigError
from bot.pacing import Pacer
from bot.platforms import Platforms
from bot.settings import DiscordSettings

log = logging.getLogger(__name__)


def use_endpoints(settings: DiscordSettings) -> None:
    """Point discord.py at the configured REST API and gateway (Discord's own by default)."""
    discord.http.Route.BASE = settings.api_base_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def make_client(
    core: Studybot, settings: DiscordSettings, *, pacer: Pacer | None = None, **options: Any
) -> StudyClient:
    """One gateway connection, or the shards the settings give this process: all of
    `DISCORD_SHARD_COUNT`, or those of `DISCORD_SHARD_IDS` (other processes run the rest);
    with neither, as many as Discord recommends. With `pacer`, its REST requests take turns
    under the bot's global rate limit (adapters/discord/pacing.py)."""
    if pacer is not None:
        options["http_trace"] = paced(pacer, settings.api_base_url)
    if not settings.sharded:
        return StudyClient(core, settings, **options)
    if settings.shard_count is not None:
        options |= {"shard_count": settings.shard_count,
                    "shard_ids": list(settings.shards_here)}  # fmt: skip
    return ShardedStudyClient(core, settings, **options)


async def serve(
    core: Studybot,
    platforms: Platforms,
    settings: DiscordSettings,
    *,
    pacer: Pacer | None = None,
    **options: Any,
) -> None:
    """Log in and stay connected until cancelled. Discord unreachable when logging in is
    tried again with a fresh client, backing off (one log line each time); once logged in,
    discord.py reconnects the gateway on its own."""
    use_endpoints(settings)
    delays = retry_delays()
    while True:
        try:
            client = make_client(core, settings, pacer=pacer, platforms=platforms, **options)
            await run_client(client, settings)
            return
        except Unreachable as exc:
            delay = next(delays)
            log.warning("Discord is unreachable (%s); trying again in %.0f s", exc, delay)
            await asyncio.sleep(delay)


class Unreachable(Exception):
    """Logging in failed on the network (or on Discord's side, a 5xx): worth trying again."""


async def run_client(client: StudyClient, settings: DiscordSettings) -> None:
    """Log `client` in and keep it connected until cancelled; detach it however it stops."""
    async with client:
        try:
            await client.login(settings.token.reveal())
        except discord.LoginFailure:
            raise ConfigError("DISCORD_TOKEN: Discord rejected the token (401); copy the "
                              "bot token again from the developer portal") from None  # fmt: skip
        except discord.DiscordServerError as exc:
            raise Unreachable(summary(exc)) from None
        except Exception as exc:
            if is_network_error(exc):
                raise Unreachable(summary(exc)) from None
            raise
        try:
            await client.connect()
        except discord.PrivilegedIntentsRequired:
            raise ConfigError("DISCORD_MESSAGE_CONTENT: the Message Content intent is not "
                              "enabled for this bot in the developer portal") from None  # fmt: skip
        finally:
            client.detach()
