"""The `studybot` command line: the composition root.

`main()` is the only place that reads the environment: it builds `Settings` once, then each
subcommand wires the pieces it needs (store, core, adapters) inside one AsyncExitStack.
Subcommand groups live in their own modules, imported only when one of their commands runs
(`studybot --help` or `studybot doctor` loads neither the chat libraries nor the grading
sandbox); this module only names them.
"""

from __future__ import annotations

import importlib

import click

from bot.hardening import harden_process
from bot.interpreter import tune_interpreter

# name -> (module:attribute, its help's first line, shown by `studybot --help`; a test keeps
# the two the same)
COMMANDS = {
    "content": ("bot.cli.content:content",
                "Work with the question bank in the content directory."),
    "run": ("bot.cli.serve:run",
            "Start the bot: the chat platforms whose tokens are set, else the console."),
    "console": ("bot.cli.serve:console",
                "Study in the terminal: the same commands as in chat "
                "(/question, /search 显存 ...)."),
    "doctor": ("bot.cli.serve:doctor",
               "Report settings (secrets masked), database and content status."),
    "db": ("bot.cli.db:db",
           "Move a deployment's data between database engines, back it up and restore it."),
    "discord": ("bot.cli.discord_cli:discord_group", "Set up the Discord bot."),
    "slack": ("bot.cli.slack:slack", "Slack set-up helpers."),
    "grade": ("bot.cli.grade:grade",
              "Grade FILE (a Python solution, or '-' for stdin) against a coding problem's tests."),
    "sandbox": ("bot.cli.sandbox:sandbox_group", "The grading sandbox: drills for operators."),
    "grader": ("bot.cli.grader:grader",
               "Grade queued submissions (needs STUDYBOT_DATABASE=postgresql://…)."),
}  # fmt: skip


class LazyGroup(click.Group):
    """A group whose subcommands are imported when used, with their help listed statically."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, _, attribute = COMMANDS[cmd_name][0].partition(":")
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command)
        return command

    def invoke(self, ctx: click.Context) -> object:
        """Ctrl-C while a command loads or runs ends it with one line and status 130 (a
        command that stops in order on SIGINT, as the console does, says the same itself)."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            from bot.cli.common import interrupted

            interrupted()

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, COMMANDS[name][1]) for name in sorted(COMMANDS)])


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """studybot: daily AI-infrastructure interview practice for study groups."""


def main() -> None:
    harden_process()
    tune_interpreter()
    cli(prog_name="studybot")
