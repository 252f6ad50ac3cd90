"""`studybot discord ...`: operating the Discord bot."""

from __future__ import annotations

import sys

import click

from bot.cli.common import settings_from_env


@click.group("discord")
def discord_group() -> None:
    """Set up the Discord bot."""


@discord_group.command("invite-url")
@click.option("--client-id", type=int, help="Application id (default: read from DISCORD_TOKEN).")
def invite_url_command(client_id: int | None) -> None:
    """Print the link that adds the bot to a server, with exactly the permissions it needs."""
    from adapters.discord.invite import application_id, invite_url  # discord.py, when needed

    if client_id is None:
        settings = settings_from_env()
        token = settings.discord.token.reveal() if settings.discord else ""
        client_id = application_id(token)
    if client_id is None:
        click.echo("set DISCORD_TOKEN to the bot's token, or pass --client-id", err=True)
        sys.exit(2)
    click.echo(invite_url(client_id))
