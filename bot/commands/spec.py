"""Declarations of every command and its options: the one source adapters read.

Discord registers its slash commands from these, Slack and the console parse text with them,
and `/help` lists them. A handler never learns which platform asked.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import t
from bot.types import Locale


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    help_key: str
    required: bool = False
    rest: bool = False  # takes the rest of the line, spaces included (search queries)
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CommandSpec:
    name: str
    help_key: str
    options: tuple[OptionSpec, ...] = ()
    # May take seconds (grading): platforms with a reply deadline acknowledge first.
    slow: bool = False

    def option(self, name: str) -> OptionSpec | None:
        return next((o for o in self.options if o.name == name), None)

    def usage(self) -> str:
        parts = [f"/{self.name}"]
        for o in self.options:
            parts.append(f"<{o.name}>" if o.required else f"[{o.name}:…]")
        return " ".join(parts)

    def summary(self, locale: Locale) -> str:
        return t(locale, self.help_key)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("question", "cmd.question", (
        OptionSpec("id", "opt.id"),
        OptionSpec("topic", "opt.topic"),
        OptionSpec("kind", "opt.kind", choices=("qa", "coding")),
    )),
    CommandSpec("answer", "cmd.answer", (OptionSpec("id", "opt.id", required=True),)),
    CommandSpec("search", "cmd.search", (OptionSpec("query", "opt.query", True, rest=True),)),
    CommandSpec("topics", "cmd.topics"),
    CommandSpec("schedule", "cmd.schedule", (
        OptionSpec("action", "opt.action", required=True,
                   choices=("set", "show", "pause", "resume", "remove")),
        OptionSpec("time", "opt.time"),
        OptionSpec("timezone", "opt.timezone"),
        OptionSpec("days", "opt.days"),
        OptionSpec("coding", "opt.coding"),
        OptionSpec("topic", "opt.topic"),
        OptionSpec("answer", "opt.answer"),
    )),
    CommandSpec("daily", "cmd.daily", (
        OptionSpec("action", "opt.daily_action", required=True, choices=("now",)),
    )),
    CommandSpec("submit", "cmd.submit", (
        OptionSpec("problem", "opt.problem", required=True),
        OptionSpec("code", "opt.code", required=True, rest=True),
    ), slow=True),
    CommandSpec("run", "cmd.run", (OptionSpec("code", "opt.code", True, rest=True),), slow=True),
    CommandSpec("me", "cmd.me"),
    CommandSpec("help", "cmd.help"),
)  # fmt: skip

BY_NAME = {spec.name: spec for spec in COMMANDS}
