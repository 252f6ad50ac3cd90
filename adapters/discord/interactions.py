"""A Discord interaction read once into an `Inbound`: who, where, in which language, and
what it asks, in the core's terms. The router routes on that value and never reads the
payload again.

The payload (`Interaction.data`) carries the options exactly as registered from the specs
(`adapters.discord.commands`): a subcommand's name fills the spec's `action` option, strings
pass through, a file option is kept as an `Upload` to fetch. A button is read from its
custom_id (`reveal:python-gil`), a form from its own (`code:submit:fast-power`) and its
inputs, each by its field's name. A member's admin right is their Manage Server permission;
they moderate with Manage Messages, or with one of the roles `DISCORD_MODERATOR_ROLE_IDS`
lists (`moderator_roles`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

import discord

from adapters.discord.commands import ATTACHMENT, SUB_COMMAND, action_option
from adapters.discord.render import parse_custom_id, parse_form_id
from bot.commands.spec import BY_NAME
from bot.routes import form_options
from bot.types import Action, ChannelRef, Invocation, Locale, User

PLATFORM = "discord"


class Asks(enum.Enum):
    COMMAND = "command"  # a slash command
    CLICK = "click"  # one of our buttons
    FORM = "form"  # one of our forms, submitted
    COMPLETE = "complete"  # autocomplete of an option being typed
    NOTHING = "nothing"  # not ours, or not something we answer (a retired kind of button)


@dataclass(frozen=True, slots=True)
class Upload:
    """A file attached to a command option, to be fetched from Discord's CDN."""

    option: str
    filename: str
    url: str
    size: int
    content_type: str | None = None  # as Discord says it, if it does


@dataclass(frozen=True, slots=True)
class Inbound:
    asks: Asks
    user: User
    channel: ChannelRef
    locale: Locale
    command: str = ""  # COMMAND, FORM, COMPLETE: the command's name
    options: dict[str, str] = field(default_factory=dict)  # COMMAND, FORM
    uploads: tuple[Upload, ...] = ()  # COMMAND
    action: Action | None = None  # CLICK
    typing: tuple[str, str] = ("", "")  # COMPLETE: the option being typed, and what is typed
    server_locale: Locale | None = None  # the guild's preferred language, in a guild

    def invocation(self, command: str | None = None,
                   options: dict[str, str] | None = None) -> Invocation:  # fmt: skip
        return Invocation(command or self.command, self.options if options is None else options,
                          user=self.user, channel=self.channel, locale=self.locale,
                          server_locale=self.server_locale)  # fmt: skip


def parse(interaction: discord.Interaction[Any],
          moderator_roles: frozenset[int] = frozenset()) -> Inbound:  # fmt: skip
    """Everything the router needs from an interaction, read once."""
    data: dict[str, Any] = dict(interaction.data or {})
    who = _who(interaction, moderator_roles)
    kind = interaction.type
    if kind is discord.InteractionType.application_command:
        name, options, uploads = _command(data)
        guild = interaction.guild_locale  # None outside a guild
        return Inbound(Asks.COMMAND, *who, command=name, options=options, uploads=uploads,
                       server_locale=Locale.parse(str(guild)) if guild else None)  # fmt: skip
    if kind is discord.InteractionType.autocomplete:
        return Inbound(Asks.COMPLETE, *who, command=str(data.get("name", "")),
                       typing=_typing(data))  # fmt: skip
    if kind is discord.InteractionType.component:
        action = parse_custom_id(str(data.get("custom_id", "")))
        return Inbound(Asks.CLICK if action else Asks.NOTHING, *who, action=action)
    if kind is discord.InteractionType.modal_submit:
        form = parse_form_id(str(data.get("custom_id", "")))
        if form is not None:
            command, subject = form
            options = form_options(command, subject, _form_values(data))
            guild = interaction.guild_locale  # a form's answer may be posted for the guild
            return Inbound(Asks.FORM, *who, command=command, options=options,
                           server_locale=Locale.parse(str(guild)) if guild else None)  # fmt: skip
    return Inbound(Asks.NOTHING, *who)


def _who(interaction: discord.Interaction[Any],
         moderator_roles: frozenset[int]) -> tuple[User, ChannelRef, Locale]:  # fmt: skip
    member = interaction.user
    in_guild = interaction.guild_id is not None
    admin = in_guild and interaction.permissions.manage_guild
    moderator = in_guild and (interaction.permissions.manage_messages
                              or not moderator_roles.isdisjoint(_role_ids(member)))  # fmt: skip
    guild = str(interaction.guild_id) if interaction.guild_id else None
    return (User(PLATFORM, str(member.id), member.display_name, is_admin=admin,
                 is_moderator=moderator),
            ChannelRef(PLATFORM, str(interaction.channel_id), guild),
            Locale.parse(str(interaction.locale)))  # fmt: skip


def _role_ids(member: discord.User | discord.Member) -> frozenset[int]:
    """The ids of the member's roles, as the interaction's own member payload lists them.

    The public `Member.roles` and `Member.get_role` resolve each id through the guild's role
    cache and drop the ones it lacks: a server whose GUILD_CREATE has not arrived yet (or
    never will, when only the application's commands are installed there) would read as no
    roles at all. discord.py keeps the payload's ids, unresolved, only in `Member._roles`
    (a `SnowflakeList` of ints, set from `data["roles"]` when the member is built); the raw
    payload itself is not kept on the `Interaction`. The ids are what the setting lists, so
    they are read there, cache or none."""
    if not isinstance(member, discord.Member):  # outside a server: no roles
        return frozenset()
    return frozenset(member._roles)


def _command(data: dict[str, Any]) -> tuple[str, dict[str, str], tuple[Upload, ...]]:
    """The command's name, its string options, and its uploaded files."""
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
    return name, options, tuple(u for u in uploads if u is not None)


def _typing(data: dict[str, Any]) -> tuple[str, str]:
    given = list(data.get("options", []))
    while given and given[0].get("type") == SUB_COMMAND:
        given = list(given[0].get("options", []))
    focused = next((o for o in given if o.get("focused")), {"name": "", "value": ""})
    return str(focused["name"]), str(focused.get("value", ""))


def _form_values(data: dict[str, Any]) -> dict[str, str]:
    """The inputs of a submitted form by custom_id (rows, or labels wrapping inputs)."""
    found: dict[str, str] = {}

    def walk(components: list[dict[str, Any]]) -> None:
        for component in components:
            if "custom_id" in component and "value" in component:
                found[component["custom_id"]] = str(component["value"])
            walk(list(component.get("components", [])))
            if isinstance(component.get("component"), dict):
                walk([component["component"]])

    walk(list(data.get("components", [])))
    return found


def _upload(data: dict[str, Any], option: dict[str, Any]) -> Upload | None:
    files = data.get("resolved", {}).get("attachments", {})
    found = files.get(str(option.get("value")))
    if found is None:
        return None
    mime = found.get("content_type")
    return Upload(option["name"], str(found["filename"]), str(found["url"]), int(found["size"]),
                  str(mime) if mime else None)  # fmt: skip
