"""Typed settings, built once in `main()` from the environment and an optional `.env` file.

Nothing else in the bot reads `os.environ`: the composition root builds a `Settings` and
passes it (or the parts a component needs) down. Every value is validated when the object is
built, so a wrong value stops start-up with a message that names the setting.

The environment wins over `.env`, as in twelve-factor apps and docker-compose.
Secrets are wrapped in `Secret`, whose repr and str never show the value.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from dotenv import dotenv_values

from bot.errors import ConfigError

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


@dataclass(frozen=True, slots=True)
class Secret:
    """A token or password. Shows as a mask everywhere except `reveal()`."""

    _value: str

    def reveal(self) -> str:
        return self._value

    def masked(self) -> str:
        return f"{self._value[:4]}…({len(self._value)} chars)" if len(self._value) > 12 else "***"

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__


@dataclass(frozen=True, slots=True)
class SettingDoc:
    name: str
    default: str
    help: str
    secret: bool = False


# Every setting the bot reads; `.env.example` and `studybot doctor` are generated from it.
DOCS = (
    SettingDoc("STUDYBOT_DATABASE", "data/studybot.sqlite3", "SQLite database file"),
    SettingDoc("STUDYBOT_CONTENT_DIR", "content", "question bank directory"),
    SettingDoc("STUDYBOT_LOG_LEVEL", "INFO", "one of " + ", ".join(LOG_LEVELS)),
    SettingDoc(
        "STUDYBOT_GRACE_MINUTES",
        "60",
        "after downtime, post a missed daily question at most this late",
    ),
    SettingDoc("DISCORD_TOKEN", "", "Discord bot token; set it to run on Discord", secret=True),
    SettingDoc(
        "DISCORD_GUILD_IDS",
        "",
        "comma-separated server ids: register commands there at once instead of globally",
    ),
    SettingDoc("DISCORD_API_BASE_URL", "https://discord.com/api/v10", "Discord REST API base"),
    SettingDoc("DISCORD_GATEWAY_URL", "wss://gateway.discord.gg/", "Discord gateway address"),
    SettingDoc("DISCORD_SHARDED", "false", "true: run the gateway sharded (very large bots)"),
    SettingDoc(
        "DISCORD_MESSAGE_CONTENT",
        "false",
        "true: grade code posted in a problem's thread (needs the Message Content intent)",
    ),
)


@dataclass(frozen=True, slots=True)
class DiscordSettings:
    """Present only when `DISCORD_TOKEN` is set; the URLs are for REST proxies and tests."""

    token: Secret
    guild_ids: tuple[int, ...] = ()
    api_base_url: str = "https://discord.com/api/v10"
    gateway_url: str = "wss://gateway.discord.gg/"
    sharded: bool = False
    message_content: bool = False

    @classmethod
    def from_values(cls, get: Callable[[str], str]) -> DiscordSettings | None:
        token = get("DISCORD_TOKEN")
        if not token:
            return None
        return cls(
            token=Secret(token.removeprefix("Bot ").strip()),
            guild_ids=_snowflakes("DISCORD_GUILD_IDS", get("DISCORD_GUILD_IDS")),
            api_base_url=_url("DISCORD_API_BASE_URL", get("DISCORD_API_BASE_URL"), "http"),
            gateway_url=_url("DISCORD_GATEWAY_URL", get("DISCORD_GATEWAY_URL"), "ws"),
            sharded=_flag("DISCORD_SHARDED", get("DISCORD_SHARDED")),
            message_content=_flag("DISCORD_MESSAGE_CONTENT", get("DISCORD_MESSAGE_CONTENT")),
        )

    def describe(self) -> list[tuple[str, str]]:
        return [
            ("DISCORD_TOKEN", self.token.masked()),
            ("DISCORD_GUILD_IDS", ",".join(map(str, self.guild_ids)) or "(global commands)"),
            ("DISCORD_API_BASE_URL", self.api_base_url),
            ("DISCORD_GATEWAY_URL", self.gateway_url),
            ("DISCORD_SHARDED", str(self.sharded).lower()),
            ("DISCORD_MESSAGE_CONTENT", str(self.message_content).lower()),
        ]


@dataclass(frozen=True, slots=True)
class Settings:
    database: Path
    content_dir: Path
    log_level: str
    grace: timedelta = timedelta(hours=1)
    discord: DiscordSettings | None = None

    @property
    def platforms(self) -> tuple[str, ...]:
        """The chat platforms whose tokens are set; none means the console."""
        return ("discord",) if self.discord else ()

    @classmethod
    def load(cls, environ: Mapping[str, str], env_file: Path | None = Path(".env")) -> Settings:
        """Merge `.env` (if present) under `environ`, then validate."""
        merged: dict[str, str] = {}
        if env_file is not None and env_file.is_file():
            merged.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        merged.update(environ)
        return cls.from_mapping(merged)

    @classmethod
    def from_mapping(cls, values: Mapping[str, str]) -> Settings:
        def get(name: str) -> str:
            default = next(d.default for d in DOCS if d.name == name)
            return values.get(name, "").strip() or default

        return cls(
            database=_database(get("STUDYBOT_DATABASE")),
            content_dir=Path(get("STUDYBOT_CONTENT_DIR")),
            log_level=_log_level(get("STUDYBOT_LOG_LEVEL")),
            grace=_minutes("STUDYBOT_GRACE_MINUTES", get("STUDYBOT_GRACE_MINUTES")),
            discord=DiscordSettings.from_values(get),
        )

    def describe(self) -> list[tuple[str, str]]:
        """Each setting with its effective value, secrets masked: for `studybot doctor`."""
        return [
            ("STUDYBOT_DATABASE", str(self.database)),
            ("STUDYBOT_CONTENT_DIR", str(self.content_dir)),
            ("STUDYBOT_LOG_LEVEL", self.log_level),
            ("STUDYBOT_GRACE_MINUTES", str(int(self.grace.total_seconds() // 60))),
            *(self.discord.describe() if self.discord else _unset("DISCORD_")),
        ]

    @property
    def log_level_number(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]


def _unset(prefix: str) -> list[tuple[str, str]]:
    return [(d.name, "(not set)") for d in DOCS if d.name.startswith(prefix)]


def _snowflakes(name: str, raw: str) -> tuple[int, ...]:
    parts = [part.strip() for part in raw.split(",") if part.strip()]
    if not all(part.isdigit() for part in parts):
        raise ConfigError(f"{name}: '{raw}' is not a comma-separated list of numeric ids")
    return tuple(int(part) for part in parts)


def _url(name: str, raw: str, scheme: str) -> str:
    if not raw.startswith((f"{scheme}://", f"{scheme}s://")):
        raise ConfigError(f"{name}: '{raw}' is not a {scheme}:// or {scheme}s:// URL")
    return raw


def _flag(name: str, raw: str) -> bool:
    value = raw.lower()
    if value not in {"true", "false", "1", "0", "yes", "no"}:
        raise ConfigError(f"{name}: '{raw}' is not true or false")
    return value in {"true", "1", "yes"}


def _database(raw: str) -> Path:
    path = Path(raw)
    if path.is_dir():
        raise ConfigError(f"STUDYBOT_DATABASE: '{raw}' is a directory; give a file path")
    if path.parent.exists() and not path.parent.is_dir():
        raise ConfigError(f"STUDYBOT_DATABASE: parent of '{raw}' is not a directory")
    return path


def _minutes(name: str, raw: str) -> timedelta:
    if not raw.isdigit() or not 0 <= int(raw) <= 24 * 60:
        raise ConfigError(f"{name}: '{raw}' is not a number of minutes from 0 to 1440")
    return timedelta(minutes=int(raw))


def _log_level(raw: str) -> str:
    level = raw.upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"STUDYBOT_LOG_LEVEL: '{raw}' is not one of {', '.join(LOG_LEVELS)}")
    return level
