"""The log's shape: plain text for a terminal, or one JSON object per line for a collector.

`configure` is called once, where the command line builds its settings; nothing else touches
the root logger. Two pieces sit on the one stderr handler, whatever the format:

- `ContextFilter` stamps every record with the process's role (bot, grader, console, cli),
  the Discord shard the event came in on (when the gateway is sharded) and the id of the
  interaction being handled, both read from context variables. The core sets the id where a
  command enters it (`Studybot.handle`, via `interaction`), so every line an interaction
  writes, in any module or task it starts, carries the same id; a Discord adapter sets the
  shard beside it.
- The formatter redacts every secret value of the settings (tokens, the database URL and its
  password) from the message and the exception text before a line is written: a token pasted
  into a chat line, or quoted in a library's exception, never reaches the log.

Submitted code is never passed to the log in the first place: the grading paths log problem
ids, verdicts and timings only (a test submits a marker and looks for it in the log).
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import sys
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from bot.settings import Settings

ROLES = ("bot", "grader", "console", "cli")
REDACTED = "[redacted]"
# Libraries whose DEBUG lines quote every statement's parameters (submitted code, stored
# with a submission, among them): they log from INFO up whatever the level.
PARAMETER_LOGGERS = ("aiosqlite",)
MIN_SECRET = 6  # characters: a shorter "secret" would blank out ordinary words

_interaction: ContextVar[str | None] = ContextVar("studybot_interaction", default=None)
_shard: ContextVar[int | None] = ContextVar("studybot_shard", default=None)


@contextlib.contextmanager
def interaction() -> Iterator[str]:
    """Tie the log lines written inside to one new id, unless an interaction is already
    being handled here (a typed line parsed, then handled, is still one interaction)."""
    current = _interaction.get()
    if current is not None:
        yield current
        return
    token = _interaction.set(secrets.token_hex(6))
    try:
        yield _interaction.get() or ""
    finally:
        _interaction.reset(token)


@contextlib.contextmanager
def on_shard(shard: int | None) -> Iterator[None]:
    """Lines written inside name `shard`, the gateway connection the event came in on."""
    token = _shard.set(shard)
    try:
        yield
    finally:
        _shard.reset(token)


class ContextFilter(logging.Filter):
    """Adds `role`, `shard` and `interaction` to every record (None where there is none)."""

    def __init__(self, role: str) -> None:
        super().__init__()
        self.role = role

    def filter(self, record: logging.LogRecord) -> bool:
        record.role = self.role
        record.shard = _shard.get()
        record.interaction = _interaction.get()
        return True


class Redactor:
    """Replaces each known secret value in a text with `[redacted]`, the longest first (a
    DSN holds its password)."""

    def __init__(self, values: Iterable[str]) -> None:
        found = {v for v in values if len(v) >= MIN_SECRET}
        self._values = sorted(found, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for value in self._values:
            text = text.replace(value, REDACTED)
        return text


class TextFormatter(logging.Formatter):
    """The readable format of old, redacted."""

    def __init__(self, redact: Redactor) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")
        self._redact = redact

    def format(self, record: logging.LogRecord) -> str:
        return self._redact(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line: time (ISO 8601, UTC), level, logger,
    message, role, and shard, interaction and exc when there are."""

    def __init__(self, redact: Redactor) -> None:
        super().__init__()
        self._redact = redact

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": self._redact(record.getMessage()),
            "role": getattr(record, "role", None),
        }
        for name in ("shard", "interaction"):
            if (value := getattr(record, name, None)) is not None:
                line[name] = value
        if record.exc_info:
            line["exc"] = self._redact(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)


def secret_values(settings: Settings) -> list[str]:
    """Every secret the settings hold, as it could appear in a log line."""
    held = [settings.postgres]
    if settings.discord is not None:
        held.append(settings.discord.token)
    if (slack := settings.slack) is not None:
        held += [slack.bot_token, slack.app_token, slack.signing_secret]
    values = [secret.reveal() for secret in held if secret is not None]
    if settings.postgres is not None and (password := urlsplit(values[0]).password):
        values.append(password)
    return values


def configure(settings: Settings, role: str) -> None:
    """Send the log to stderr at the settings' level and in their format, for a process in
    `role`. As `logging.basicConfig`, it leaves a root logger that has someone else's
    handlers alone (a test runner's); calling it again replaces its own handler."""
    for name in PARAMETER_LOGGERS:
        logging.getLogger(name).setLevel(max(logging.INFO, settings.log_level_number))
    root = logging.getLogger()
    if any(not isinstance(h, _Handler) for h in root.handlers):
        return
    for old in root.handlers[:]:
        root.removeHandler(old)
    redact = Redactor(secret_values(settings))
    handler = _Handler(sys.stderr)
    handler.addFilter(ContextFilter(role))
    json_format = settings.log_format == "json"
    handler.setFormatter(JsonFormatter(redact) if json_format else TextFormatter(redact))
    root.addHandler(handler)
    root.setLevel(settings.log_level_number)
    logging.captureWarnings(json_format)  # a warning, too, is one JSON line, not two raw ones


class _Handler(logging.StreamHandler):  # type: ignore[type-arg]
    """The handler `configure` installs (told apart from others')."""
