"""The bot's token and invite link: what `studybot discord invite-url` and `doctor` show.

A bot token is three dot-separated base64url parts; the first encodes the bot's user id,
which for a bot created in the developer portal is also its application (client) id. So the
invite URL needs nothing but the token, and no network.

The permissions are exactly what the bot does: read the channel and its history (to answer
a mention or a thread), send messages and embeds, start public threads on its daily posts and
post in them. The `applications.commands` scope installs the slash commands.
"""

from __future__ import annotations

import base64
import binascii
import re

import discord

SCOPES = ("bot", "applications.commands")
_SHAPE = re.compile(r"^[A-Za-z0-9_-]{17,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{20,}$")


def permissions() -> discord.Permissions:
    return discord.Permissions(
        view_channel=True,
        read_message_history=True,
        send_messages=True,
        embed_links=True,
        create_public_threads=True,
        send_messages_in_threads=True,
    )


def application_id(token: str) -> int | None:
    """The id the token's first part encodes, or None if it is not a bot token."""
    if not _SHAPE.match(token):
        return None
    head = token.split(".", 1)[0]
    try:
        decoded = base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return int(decoded) if decoded.isdigit() else None


def token_problem(token: str) -> str | None:
    """What is wrong with the token's shape (no network), or None if it looks like one."""
    if token.count(".") != 2 or any(c.isspace() for c in token):
        return "DISCORD_TOKEN does not look like a bot token (three parts separated by dots)"
    if application_id(token) is None:
        return "DISCORD_TOKEN: its first part does not encode a bot id; copy the token again"
    return None


def invite_url(client_id: int) -> str:
    return discord.utils.oauth_url(client_id, permissions=permissions(), scopes=SCOPES)
