"""Application commands built from the core's `COMMANDS`: the one declaration, not a copy.

Each `CommandSpec` becomes one slash command in Discord's JSON schema, so the registered
names, options and choices cannot drift from what the core parses. Translation rules:

- A command whose first option is an `action` with choices (`/schedule`, `/daily`) gets one
  subcommand per choice; an option goes to the subcommands its `only_for` names.
- An option with `suggest` autocompletes (the core's `Studybot.complete` answers).
- A `multiline` option (code) cannot be a string option, which loses line breaks: it becomes
  an optional file attachment, and without a file the bot opens a form. `/import`'s is the
  report's file (`bot.routes.takes_report`), described as such.
- `for_admins` commands are shown only to members with Manage Server
  (`default_member_permissions`); the core still checks every changing action.
- Names and descriptions carry Chinese localisations from `bot.i18n`.
"""

from __future__ import annotations

from typing import Any

from bot.commands.spec import COMMANDS, CommandSpec, OptionSpec
from bot.i18n import CATALOG, t
from bot.routes import takes_report
from bot.types import Locale

SUB_COMMAND, STRING, ATTACHMENT = 1, 3, 11
CHAT_INPUT = 1
MANAGE_GUILD = 1 << 5
CHINESE = ("zh-CN", "zh-TW")
DESCRIPTION_LIMIT = 100
Payload = dict[str, Any]


def command_payloads(specs: tuple[CommandSpec, ...] = COMMANDS) -> list[Payload]:
    """The JSON for a bulk overwrite (PUT /applications/{id}/commands)."""
    return [_command(spec) for spec in specs]


def action_option(spec: CommandSpec) -> OptionSpec | None:
    """The option whose choices are subcommands on Discord, if the command has one."""
    first = spec.options[0] if spec.options else None
    return first if first is not None and first.name == "action" and first.choices else None


def _command(spec: CommandSpec) -> Payload:
    payload: Payload = {
        "type": CHAT_INPUT,
        "name": spec.name,
        **_described(spec.help_key),
        "options": _options(spec),
        "contexts": [0, 1],  # servers and the bot's DMs
        "default_member_permissions": str(MANAGE_GUILD) if spec.for_admins else None,
    }
    if f"name.{spec.name}" in CATALOG:
        payload["name_localizations"] = _localised(f"name.{spec.name}")
    return payload


def _options(spec: CommandSpec) -> list[Payload]:
    action = action_option(spec)
    if action is None:
        return _ordered([_option(o, spec.name) for o in spec.options])
    return [_subcommand(spec, choice) for choice in action.choices]


def _subcommand(spec: CommandSpec, choice: str) -> Payload:
    key = f"sub.{spec.name}.{choice}"
    described = _described(key) if key in CATALOG else _described(spec.help_key)
    options = [o for o in spec.options[1:] if not o.only_for or choice in o.only_for]
    return {"type": SUB_COMMAND, "name": choice, **described,
            "options": _ordered([_option(o, spec.name) for o in options])}  # fmt: skip


def _option(option: OptionSpec, command: str) -> Payload:
    if option.multiline:
        described = _described("opt.report_file" if takes_report(command) else "opt.file")
        return {"type": ATTACHMENT, "name": option.name, **described, "required": False}
    payload: Payload = {"type": STRING, "name": option.name, **_described(option.help_key),
                        "required": option.required}  # fmt: skip
    if option.choices:
        payload["choices"] = [{"name": c, "value": c} for c in option.choices]
    elif option.suggest is not None:
        payload["autocomplete"] = True
    if option.max_length:  # Discord's client holds the member to the core's cap
        payload["max_length"] = option.max_length
    return payload


def _ordered(options: list[Payload]) -> list[Payload]:
    """Discord wants required options before optional ones; otherwise keep the spec's order."""
    return sorted(options, key=lambda o: not o.get("required", False))


def _described(key: str) -> Payload:
    return {"description": _cut(t(Locale.EN, key)), "description_localizations": _localised(key)}


def _localised(key: str) -> dict[str, str]:
    return dict.fromkeys(CHINESE, _cut(t(Locale.ZH, key)))


def _cut(text: str) -> str:
    text = text.replace("`", "")  # descriptions are plain text
    return text if len(text) <= DESCRIPTION_LIMIT else text[: DESCRIPTION_LIMIT - 1] + "…"
