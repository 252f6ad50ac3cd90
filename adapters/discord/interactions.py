"""Discord interactions translated into the core's terms: who, where, which command, which options.

Reads the interaction payload (`Interaction.data`), which carries the options exactly as
registered from the specs (`adapters.discord.commands`): a subcommand's name fills the spec's
`action` option, strings pass through, a file option is returned as an `Upload` to fetch.
A member's admin right is their Manage Server permission.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from adapters.discord.commands import ATTACHMENT, SUB_COMMAND, action_option
from bot.commands.spec import BY_NAME
from bot.types import Action, ActionKind, ChannelRef, Invocation, Locale, User

PLATFORM = "discord"


@dataclass(frozen=True, slots=True)
class Upload:
    """A file attached to a command option, to be fetched from Discord's CDN."""

    option: str
    filename: str
    url: str
    size: int


def locale_of(interaction: discord.Interaction[Any]) -> Locale:
    return Locale.parse(str(interaction.locale))


def user_of(interaction: discord.Interaction[Any]) -> User:
    who = interaction.user
    admin = interaction.guild_id is not None and interaction.permissions.manage_guild
    return User(PLATFORM, str(who.id), who.display_name, is_admin=admin)


def channel_of(interaction: discord.Interaction[Any]) -> ChannelRef:
    guild = str(interaction.guild_id) if interaction.guild_id else None
    return ChannelRef(PLATFORM, str(interaction.channel_id), guild)


def invocation(interaction: discord.Interaction[Any], command: str,
               options: dict[str, str]) -> Invocation:  # fmt: skip
    return Invocation(command, options, user=user_of(interaction),
                      channel=channel_of(interaction), locale=locale_of(interaction))  # fmt: skip


def command_options(
    interaction: discord.Interaction[Any],
) -> tuple[str, dict[str, str], list[Upload]]:
    """The command's name, its string options, and its uploaded files."""
    data: dict[str, Any] = dict(interaction.data or {})
    name = str(data.get("name", ""))
    given = list(data.get("options", []))
    options: dict[str, str] = {}
    spec = BY_NAME.get(name)
    action = action_option(spec) if spec else None
    if action is not None and given and given[0].get("type") == SUB_COMMAND:
        options[action.name] = given[0]["name"]
        given = list(given[0].get("options", []))
    uploads = [_upload(data, o) for o in given if o.get("type") == ATTACHMENT]
    options |= {o["name"]: str(o["value"]) for o in given
                if o.get("type") != ATTACHMENT and "value" in o}  # fmt: skip
    return name, options, [u for u in uploads if u is not None]


def focused(interaction: discord.Interaction[Any]) -> tuple[str, str, str]:
    """For an autocomplete request: the command, the option being typed, and what was typed."""
    data: dict[str, Any] = dict(interaction.data or {})
    given = list(data.get("options", []))
    while given and given[0].get("type") == SUB_COMMAND:
        given = list(given[0].get("options", []))
    typing = next((o for o in given if o.get("focused")), {"name": "", "value": ""})
    return str(data.get("name", "")), str(typing["name"]), str(typing.get("value", ""))


def action_invocation(interaction: discord.Interaction[Any], action: Action) -> Invocation | None:
    """What a button click asks the core; None for actions that open a form instead."""
    if action.kind is ActionKind.SUBMIT_SOLUTION:
        return None
    command, options = action.invocation()
    return invocation(interaction, command, options)


def form_values(interaction: discord.Interaction[Any]) -> dict[str, str]:
    """The inputs of a submitted form by custom_id (rows, or labels wrapping inputs)."""
    found: dict[str, str] = {}

    def walk(components: list[dict[str, Any]]) -> None:
        for component in components:
            if "custom_id" in component and "value" in component:
                found[component["custom_id"]] = str(component["value"])
            walk(list(component.get("components", [])))
            if isinstance(component.get("component"), dict):
                walk([component["component"]])

    data: dict[str, Any] = dict(interaction.data or {})
    walk(list(data.get("components", [])))
    return found


def _upload(data: dict[str, Any], option: dict[str, Any]) -> Upload | None:
    files = data.get("resolved", {}).get("attachments", {})
    found = files.get(str(option.get("value")))
    if found is None:
        return None
    return Upload(option["name"], str(found["filename"]), str(found["url"]), int(found["size"]))
