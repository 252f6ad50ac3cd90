"""Turning a typed command line into an `Invocation`'s name and options.

Used by the console and by text-command platforms (Slack's `/study ...`). Grammar:

    /name [positional] [key:value ...]

The first bare word fills the first option; `key:value` fills that option by name. An
option marked `rest` takes everything after the command (so `/search GIL 多线程` searches for
both words). Mistakes raise `BadArgument` / `UnknownCommand` with the command's usage.
"""

from __future__ import annotations

from bot.commands.spec import BY_NAME, CommandSpec
from bot.errors import BadArgument, UnknownCommand
from bot.i18n import t
from bot.types import Locale


def parse_line(line: str, locale: Locale = Locale.EN) -> tuple[str, dict[str, str]]:
    """Split `/name args...` into the command name and its options."""
    text = line.strip().removeprefix("/")
    name, _, rest = text.partition(" ")
    name = name.lower()
    spec = BY_NAME.get(name)
    if spec is None:
        raise UnknownCommand(t(locale, "error.unknown_command", name=name))
    return name, parse_options(spec, rest.strip(), locale)


def parse_options(spec: CommandSpec, rest: str, locale: Locale) -> dict[str, str]:
    rest_option = next((o for o in spec.options if o.rest), None)
    if rest_option is not None:
        return {rest_option.name: rest} if rest else {}
    options: dict[str, str] = {}
    positional = [o.name for o in spec.options]
    for word in rest.split():
        key, sep, value = word.partition(":")
        if sep and spec.option(key.lower()) is not None and value:
            options[key.lower()] = value
        elif sep and value and not key.isdigit() and ":" not in value:
            raise BadArgument(t(locale, "error.unknown_option", name=spec.name, option=key,
                                usage=spec.usage()))  # fmt: skip
        elif positional and positional[0] not in options:
            options[positional.pop(0)] = word
        else:
            raise BadArgument(t(locale, "error.too_many", name=spec.name, usage=spec.usage()))
    return options
