"""The `studybot` command line: the composition root.

`main()` is the only place that reads the environment: it builds `Settings` once, then each
subcommand wires the pieces it needs (store, core, adapters) inside one AsyncExitStack.
Subcommand groups live in their own modules; this one only assembles them.
"""

from __future__ import annotations

import click

from bot.app import tune_interpreter
from bot.cli.content import content
from bot.cli.discord_cli import discord_group
from bot.cli.grade import grade
from bot.cli.importing import import_command
from bot.cli.sandbox import sandbox_group
from bot.cli.serve import console, doctor, run
from bot.cli.slack import slack
from bot.hardening import harden_process


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """studybot: daily AI-infrastructure interview practice for study groups."""


content.add_command(import_command)
cli.add_command(content)
cli.add_command(run)
cli.add_command(console)
cli.add_command(doctor)
cli.add_command(discord_group)
cli.add_command(slack)
cli.add_command(grade)
cli.add_command(sandbox_group)


def main() -> None:
    harden_process()
    tune_interpreter()
    cli(prog_name="studybot")
