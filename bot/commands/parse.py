"""Turning a typed command line into an `Invocation`'s name and options.

Used by the console and by text-command platforms (Slack's `/study ...`). Grammar:

    /name [positional] [key:value ...]

The first bare word fills the first option, the next the next (up to the command's
`positional` count: `/question python-gil extra` is refused as extra words, not read as a
topic and a kind); `key:value` fills that option by name. An
option marked `rest` takes everything after the options before it, newlines included (so
`/search GIL 多线程` searches for both words, and `/submit fast-power ```python ...` gets the
whole code block). A value with spaces is quoted: `title:"Python 的 GIL"` (`/drafts edit`).
Mistakes raise `BadArgument` / `UnknownCommand` with the command's usage.

A button's own command (`/forget-confirm`, `/quiz`, `/rate` ...: spec.py's BUTTON_COMMANDS)
is never typed: a typed one is refused, naming the button that runs it, so deleting a
member's data takes the Delete button under `/forget me`'s list of what would go.
"""

from __future__ import annotations

import difflib
import re
import unicodedata

from bot.commands.spec import BUTTON_COMMANDS, BY_NAME, COMMANDS, CommandSpec
from bot.errors import BadArgument, UnknownCommand
from bot.i18n import t
from bot.types import Locale


def parse_line(line: str, locale: Locale = Locale.EN) -> tuple[str, dict[str, str]]:
    """Split `/name args...` into the command name and its options."""
    text = line.strip().removeprefix("/")
    name, rest = _first_word(text)
    name = name.lower()
    spec = BY_NAME.get(name)
    if spec is None:
        raise unknown_command(name, locale)
    if spec in BUTTON_COMMANDS:
        raise BadArgument(t(locale, "error.button_only", name=name,
                            button=t(locale, f"button_of.{name}")))  # fmt: skip
    return name, parse_options(spec, rest.strip(), locale)


def unknown_command(name: str, locale: Locale) -> UnknownCommand:
    """The error for a command that does not exist, naming the closest one if any."""
    shown = name if len(name) <= 40 else name[:39] + "…"
    close = difflib.get_close_matches(
        name.lower(), [spec.name for spec in COMMANDS], n=1, cutoff=0.6
    )
    if close:
        return UnknownCommand(t(locale, "error.unknown_command_close", name=shown, close=close[0]))
    return UnknownCommand(t(locale, "error.unknown_command", name=shown))


def parse_options(spec: CommandSpec, rest: str, locale: Locale) -> dict[str, str]:
    rest_option = next((o for o in spec.options if o.rest), None)
    if rest_option is not None:
        return _with_rest(spec, rest_option.name, rest)
    options: dict[str, str] = {}
    positional = [o.name for o in spec.options][: spec.positional]
    words = _words(rest)
    for at, word in enumerate(words):
        key, sep, value = folded(word).partition(":")  # `page：２` as `page:2`
        if sep and spec.option(key.lower()) is not None and not value:
            raise BadArgument(t(locale, "error.empty_option", option=key.lower(),
                                usage=spec.usage()))  # fmt: skip
        if sep and spec.option(key.lower()) is not None and value:
            options[key.lower()] = value
        elif sep and value and not _number(key) and ":" not in value:
            raise BadArgument(t(locale, "error.unknown_option", name=spec.name, option=key[:40],
                                usage=spec.usage()))  # fmt: skip
        elif positional and positional[0] not in options:
            options[positional.pop(0)] = word
        else:
            extra = " ".join(w for w in words[at:] if ":" not in w)
            extra = extra if len(extra) <= 40 else extra[:39] + "…"
            raise BadArgument(t(locale, "error.too_many", name=spec.name, extra=extra,
                                usage=spec.usage()))  # fmt: skip
    return options


# A `key:"quoted value"` (spaces kept, quotes dropped), or any other word.
_WORD = re.compile(r'(\S+?:)"([^"]*)"(?=\s|$)|(\S+)')


def _words(rest: str) -> list[str]:
    return [m[1] + m[2] if m[1] else m[3] for m in _WORD.finditer(rest)]


def folded(text: str) -> str:
    """`text` with full-width digits, letters and punctuation as ASCII (NFKC), as Chinese
    input methods type them: every option value and `key:value` word goes through here."""
    return unicodedata.normalize("NFKC", text)


def _number(key: str) -> bool:
    """`09` of `09:00` and `-01` of `-01:00`: a value with a colon, not an option's name."""
    return key.lstrip("+-").isdigit()


def _first_word(text: str) -> tuple[str, str]:
    parts = text.split(maxsplit=1)
    return (parts[0], parts[1]) if len(parts) == 2 else (text.strip(), "")


def _with_rest(spec: CommandSpec, rest_name: str, text: str) -> dict[str, str]:
    """Options before the `rest` one take a word each (positionally or as key:value);
    a code fence ends them early. The `rest` option takes the remainder verbatim."""
    options: dict[str, str] = {}
    for option in spec.options:
        if option.name == rest_name:
            break
        word, remainder = _first_word(text)
        if not word or word.startswith("`"):
            break
        key, sep, value = word.partition(":")
        options[option.name] = value if sep and key.lower() == option.name else word
        text = remainder
    if text.strip():
        options[rest_name] = text.strip()
    return options
