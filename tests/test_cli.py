"""The command line: every subcommand is found, and `--help` lists them without importing
them (so it answers at once), with help that matches each command's own."""

from __future__ import annotations

import subprocess
import sys

import click

from bot.cli import COMMANDS, cli
from tests.fakes import REPO


def test_the_listed_help_is_each_commands_own_first_line() -> None:
    ctx = click.Context(cli)
    for name, (_, listed) in COMMANDS.items():
        command = cli.get_command(ctx, name)
        assert command is not None, name
        assert (command.help or "").split("\n")[0] == listed, name


def test_help_imports_neither_the_chat_libraries_nor_the_sandbox() -> None:
    heavy = "('discord', 'slack_bolt', 'aiohttp', 'numpy', 'bot.app', 'bot.grading.pool')"
    probe = ("import sys; from click.testing import CliRunner; from bot.cli import cli; "
             "result = CliRunner().invoke(cli, ['--help']); assert result.exit_code == 0; "
             f"print(sorted(m for m in {heavy} if m in sys.modules))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=REPO, check=True, timeout=60)  # fmt: skip
    assert done.stdout.strip() == "[]"
