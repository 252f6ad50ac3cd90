"""The discord.py client: connects, registers the commands, hands every event to a router.

The client attaches its `DiscordAdapter` to the core's `Platforms` when the gateway session is
ready, and again when it is resumed after a reconnect; `run.run_client` detaches it when the
client stops. Scheduled posts therefore start flowing whenever Discord connects, before or
after the scheduler and the other platforms.

`setup_hook` (after login, before the gateway) overwrites the application's commands with
those built from the core's specs, globally or, with `DISCORD_GUILD_IDS`, in those servers
at once (global commands take up to an hour to appear). Intents are the least the bot
needs: guilds, and messages for code that mentions the bot; the privileged Message Content
intent only when `DISCORD_MESSAGE_CONTENT` asks for it. No member or message cache: the
bot reads everything it needs from each event. Nothing it sends may mention anyone (the
`allowed_mentions` default): echoed text is made inert in the core as well, but Discord itself
then refuses to ping for whatever slips through.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from adapters.discord.adapter import DiscordAdapter
from adapters.discord.chat import ChatGrader
from adapters.discord.commands import command_payloads
from adapters.discord.interactions import PLATFORM
from adapters.discord.router import InteractionRouter
from bot.core import Studybot
from bot.logs import on_shard
from bot.platforms import Platforms
from bot.settings import DiscordSettings

log = logging.getLogger(__name__)


def intents(settings: DiscordSettings) -> discord.Intents:
    wanted = discord.Intents.none()
    wanted.guilds = wanted.guild_messages = wanted.dm_messages = True
    wanted.message_content = settings.message_content
    return wanted


class StudyClient(discord.Client):
    def __init__(
        self, core: Studybot, settings: DiscordSettings, *, platforms: Platforms | None = None,
        defer_after: float | None = None, **options: Any,
    ) -> None:  # fmt: skip
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(intents=intents(settings), max_messages=None,
                         chunk_guilds_at_startup=False,
                         member_cache_flags=discord.MemberCacheFlags.none(), **options)  # fmt: skip
        self.router = InteractionRouter(core, self.http.get_from_cdn, defer_after=defer_after,
                                        moderator_roles=settings.moderator_role_ids)  # fmt: skip
        self._grader = ChatGrader(core, self)
        self._guild_ids = settings.guild_ids
        self.registered: list[dict[str, Any]] = []
        self.adapter = DiscordAdapter(self)
        self._platforms = platforms if platforms is not None else Platforms()

    async def setup_hook(self) -> None:
        app_id = self.application_id
        if app_id is None:  # login() sets it; guard for the type checker
            raise RuntimeError("application id unknown after login")
        payloads: Any = command_payloads()  # JSON; discord.py types it as its TypedDicts
        if self._guild_ids:
            for guild in self._guild_ids:
                found = await self.http.bulk_upsert_guild_commands(app_id, guild, payloads)
        else:
            found = await self.http.bulk_upsert_global_commands(app_id, payloads)
        self.registered = [dict(command) for command in found]
        where = f"{len(self._guild_ids)} server(s)" if self._guild_ids else "globally"
        log.info("registered %d commands %s", len(self.registered), where)

    async def on_ready(self) -> None:
        await self._platforms.attach(PLATFORM, self.adapter)

    async def on_resumed(self) -> None:
        await self._platforms.attach(PLATFORM, self.adapter)

    def detach(self) -> None:
        self._platforms.detach(PLATFORM)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        with on_shard(self.shard_of(interaction.guild_id)):
            await self.router.route(interaction)

    async def on_message(self, message: discord.Message) -> None:
        with on_shard(self.shard_of(message.guild.id if message.guild else None)):
            await self._grader.on_message(message)

    def shard_of(self, guild_id: int | None) -> int | None:
        """The shard an event of `guild_id` came in on, for the log: none unless sharded."""
        return None


class ShardedStudyClient(StudyClient, discord.AutoShardedClient):
    """The same bot over several gateway connections, for very large deployments.

    Discord sends each server's events on shard `(guild_id >> 22) % shard_count` (and DMs on
    shard 0), so processes that run disjoint `shard_ids` of one `shard_count` each see only
    their servers' events and answer only their servers' interactions; whatever they share
    lives in the database. The adapter is attached once the first shard is ready: sends go
    over REST, which any shard's process may use for any channel."""

    def shard_of(self, guild_id: int | None) -> int | None:
        if not guild_id or not self.shard_count:
            return 0
        return (guild_id >> 22) % self.shard_count
