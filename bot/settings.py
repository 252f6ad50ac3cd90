"""Typed settings, built once in `main()` from the environment and an optional `.env` file.

Nothing else in the bot reads `os.environ`: the composition root builds a `Settings` and
passes it (or the parts a component needs) down. Every value is validated when the object is
built, so a wrong value stops start-up with a message that names the setting.

The environment wins over `.env`, as in twelve-factor apps and docker-compose.
Secrets are wrapped in `Secret`, whose repr and str never show the value.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import platformdirs
from dotenv import dotenv_values

from bot.errors import ConfigError

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
SLACK_API = "https://slack.com/api/"


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
    SettingDoc(
        "STUDYBOT_DATABASE",
        "",
        "SQLite database file (default: studybot.sqlite3 in the user's data directory, e.g. "
        "~/.local/share/studybot), or postgresql://user:password@host/db to run on PostgreSQL "
        "(many bot and grader processes)",
        secret=True,
    ),
    SettingDoc(
        "STUDYBOT_CONTENT_DIR",
        "",
        "question bank directory (default: the bank installed with studybot)",
    ),
    SettingDoc(
        "STUDYBOT_CACHE_DIR",
        "",
        "where computed problem tests and proofs are kept (default: the user's cache "
        "directory, e.g. ~/.cache/studybot)",
    ),
    SettingDoc("STUDYBOT_LOG_LEVEL", "INFO", "one of " + ", ".join(LOG_LEVELS)),
    SettingDoc(
        "STUDYBOT_LOG_FORMAT",
        "text",
        "text: readable lines; json: one JSON object per line (time, level, logger, message,"
        " role, shard, interaction, exc), secrets redacted",
    ),
    SettingDoc(
        "STUDYBOT_GRACE_MINUTES",
        "60",
        "after downtime, post a missed daily question at most this late",
    ),
    SettingDoc(
        "STUDYBOT_GRADING_ISOLATION",
        "",
        "strict: refuse to grade unless every isolation layer is up; relaxed: grade with what"
        " the kernel allows. Default: strict when a platform token is set, else relaxed",
    ),
    SettingDoc(
        "STUDYBOT_METRICS_PORT",
        "",
        "serve Prometheus /metrics, /healthz and /readyz on this port (bot and grader "
        "processes); empty: no metrics server",
    ),
    SettingDoc("STUDYBOT_METRICS_HOST", "127.0.0.1", "address the metrics server listens on"),
    SettingDoc("DISCORD_TOKEN", "", "Discord bot token; set it to run on Discord", secret=True),
    SettingDoc(
        "DISCORD_GUILD_IDS",
        "",
        "comma-separated server ids: register commands there at once instead of globally",
    ),
    SettingDoc(
        "DISCORD_MODERATOR_ROLE_IDS",
        "",
        "comma-separated role ids whose members moderate (besides Manage Messages)",
    ),
    SettingDoc("DISCORD_API_BASE_URL", "https://discord.com/api/v10", "Discord REST API base"),
    SettingDoc("DISCORD_GATEWAY_URL", "wss://gateway.discord.gg/", "Discord gateway address"),
    SettingDoc(
        "DISCORD_SHARDED",
        "false",
        "true: run the gateway sharded, as many shards as Discord recommends, all in this "
        "process (very large bots); DISCORD_SHARD_COUNT implies it",
    ),
    SettingDoc(
        "DISCORD_SHARD_COUNT",
        "",
        "the total number of gateway shards across every bot process (the same in each); "
        "empty: Discord's recommendation with DISCORD_SHARDED, else one connection",
    ),
    SettingDoc(
        "DISCORD_SHARD_IDS",
        "",
        "the shards this process runs, e.g. 0,1 or 0-3 (each below DISCORD_SHARD_COUNT); "
        "empty: all of them",
    ),
    SettingDoc(
        "DISCORD_MESSAGE_CONTENT",
        "false",
        "true: grade code posted in a problem's thread (needs the Message Content intent)",
    ),
    SettingDoc(
        "DISCORD_REQUESTS_PER_SECOND",
        "45",
        "REST requests a second for the whole bot, every process together (Discord allows "
        "50; raise it only if Discord raised the bot's limit)",
    ),
    SettingDoc("SLACK_BOT_TOKEN", "", "Slack bot token (xoxb-...); Slack starts when set", True),
    SettingDoc("SLACK_APP_TOKEN", "", "Slack app-level token (xapp-...): Socket Mode", True),
    SettingDoc("SLACK_SIGNING_SECRET", "", "Slack signing secret: HTTP mode (no app token)", True),
    SettingDoc("SLACK_HTTP_PORT", "3000", "HTTP mode: port that serves /slack/events"),
    SettingDoc(
        "SLACK_ADMIN_USER_IDS", "", "Slack user ids (comma-separated) who may manage schedules"
    ),
    SettingDoc(
        "SLACK_MODERATOR_USER_IDS",
        "",
        "Slack user ids (comma-separated) who moderate without being admins",
    ),
    SettingDoc("SLACK_API_BASE_URL", SLACK_API, "Slack Web API base URL (GovSlack, proxies)"),
)


@dataclass(frozen=True, slots=True)
class DiscordSettings:
    """Present only when `DISCORD_TOKEN` is set; the URLs are for REST proxies and tests."""

    token: Secret
    guild_ids: tuple[int, ...] = ()
    moderator_role_ids: frozenset[int] = frozenset()  # besides Manage Messages
    api_base_url: str = "https://discord.com/api/v10"
    gateway_url: str = "wss://gateway.discord.gg/"
    sharded: bool = False
    message_content: bool = False
    shard_count: int | None = None  # every process's shards together; None: Discord's advice
    shard_ids: tuple[int, ...] = ()  # the shards this process runs; (): all of them
    requests_per_second: float = 45.0  # Discord's global limit is 50: room for jitter

    @property
    def shards_here(self) -> tuple[int, ...]:
        """The shards this process connects (empty while Discord chooses the count)."""
        return self.shard_ids or tuple(range(self.shard_count or 0))

    def _count_shown(self) -> str:
        if not self.sharded:
            return "(not sharded)"
        return str(self.shard_count) if self.shard_count else "(Discord's recommendation)"

    @classmethod
    def from_values(cls, get: Callable[[str], str]) -> DiscordSettings | None:
        token = get("DISCORD_TOKEN")
        if not token:
            return None
        count = _shard_count(get("DISCORD_SHARD_COUNT"))
        return cls(
            token=Secret(token.removeprefix("Bot ").strip()),
            guild_ids=_snowflakes("DISCORD_GUILD_IDS", get("DISCORD_GUILD_IDS")),
            moderator_role_ids=frozenset(
                _snowflakes("DISCORD_MODERATOR_ROLE_IDS", get("DISCORD_MODERATOR_ROLE_IDS"))
            ),
            api_base_url=_url("DISCORD_API_BASE_URL", get("DISCORD_API_BASE_URL"), "http"),
            gateway_url=_url("DISCORD_GATEWAY_URL", get("DISCORD_GATEWAY_URL"), "ws"),
            sharded=_flag("DISCORD_SHARDED", get("DISCORD_SHARDED")) or count is not None,
            message_content=_flag("DISCORD_MESSAGE_CONTENT", get("DISCORD_MESSAGE_CONTENT")),
            shard_count=count,
            shard_ids=_shard_ids(get("DISCORD_SHARD_IDS"), count),
            requests_per_second=_rate(
                "DISCORD_REQUESTS_PER_SECOND", get("DISCORD_REQUESTS_PER_SECOND")
            ),
        )

    def describe(self) -> list[tuple[str, str]]:
        return [
            ("DISCORD_TOKEN", self.token.masked()),
            ("DISCORD_GUILD_IDS", ",".join(map(str, self.guild_ids)) or "(global commands)"),
            (
                "DISCORD_MODERATOR_ROLE_IDS",
                ",".join(map(str, sorted(self.moderator_role_ids))) or "(Manage Messages only)",
            ),
            ("DISCORD_API_BASE_URL", self.api_base_url),
            ("DISCORD_GATEWAY_URL", self.gateway_url),
            ("DISCORD_SHARDED", str(self.sharded).lower()),
            ("DISCORD_SHARD_COUNT", self._count_shown()),
            ("DISCORD_SHARD_IDS", ",".join(map(str, self.shard_ids)) or "(all)"),
            ("DISCORD_MESSAGE_CONTENT", str(self.message_content).lower()),
            ("DISCORD_REQUESTS_PER_SECOND", f"{self.requests_per_second:g}"),
        ]


@dataclass(frozen=True, slots=True)
class SlackSettings:
    """Slack is on when a bot token is set. An app token selects Socket Mode (no public URL);
    without one, HTTP mode serves `/slack/events` on `http_port`, checked with the signing
    secret."""

    bot_token: Secret
    app_token: Secret | None = None
    signing_secret: Secret | None = None
    http_port: int = 3000
    admin_user_ids: frozenset[str] = frozenset()
    moderator_user_ids: frozenset[str] = frozenset()  # besides admins and owners
    api_base_url: str = SLACK_API

    @property
    def socket_mode(self) -> bool:
        return self.app_token is not None

    def describe(self) -> list[tuple[str, str]]:
        def masked(secret: Secret | None) -> str:
            return secret.masked() if secret is not None else "(not set)"

        return [
            ("SLACK_BOT_TOKEN", self.bot_token.masked()),
            ("SLACK_APP_TOKEN", masked(self.app_token)),
            ("SLACK_SIGNING_SECRET", masked(self.signing_secret)),
            ("SLACK_HTTP_PORT", str(self.http_port)),
            ("SLACK_ADMIN_USER_IDS", ",".join(sorted(self.admin_user_ids)) or "(not set)"),
            (
                "SLACK_MODERATOR_USER_IDS",
                ",".join(sorted(self.moderator_user_ids)) or "(admins only)",
            ),
            ("SLACK_API_BASE_URL", self.api_base_url),
        ]


@dataclass(frozen=True, slots=True)
class ClockOverride:
    """For tests only (`STUDYBOT_TEST_CLOCK=2026-01-05T08:59:50+00:00*60`): the bot's clock
    starts at `start` and runs `speed` times as fast as the wall clock, so a test can run
    `studybot run` as a process, restart it, and see the 09:00 post in a second without
    sleeping for minutes. Not listed among the settings, and never for production."""

    start: datetime
    speed: float = 1.0

    @classmethod
    def parse(cls, raw: str) -> ClockOverride | None:
        if not raw.strip():
            return None
        instant, _, speed = raw.strip().partition("*")
        try:
            start = datetime.fromisoformat(instant)
            factor = float(speed) if speed else 1.0
        except ValueError:
            raise ConfigError(f"{TEST_CLOCK}: '{raw}' is not <ISO instant>[*<speed>]") from None
        if factor <= 0:
            raise ConfigError(f"{TEST_CLOCK}: the speed must be positive")
        return cls(start if start.tzinfo else start.replace(tzinfo=UTC), factor)


TEST_CLOCK = "STUDYBOT_TEST_CLOCK"


@dataclass(frozen=True, slots=True)
class MetricsEndpoint:
    """Where a process serves /metrics, /healthz and /readyz (port 0: any free port, for
    tests)."""

    host: str
    port: int

    @classmethod
    def parse(cls, host: str, raw_port: str) -> MetricsEndpoint | None:
        if not raw_port:
            return None
        if raw_port == "0":
            return cls(host, 0)
        return cls(host, _port("STUDYBOT_METRICS_PORT", raw_port))


@dataclass(frozen=True, slots=True)
class Settings:
    database: Path  # the SQLite file; with `postgres` set, only where exports are written
    content_dir: Path
    log_level: str
    grace: timedelta = timedelta(hours=1)
    cache_dir: Path = field(default_factory=lambda: default_cache())
    discord: DiscordSettings | None = None
    slack: SlackSettings | None = None
    isolation: str = ""  # "strict" | "relaxed" | "" (strict exactly when a platform is set)
    test_clock: ClockOverride | None = None  # tests of `studybot run` as a process only
    postgres: Secret | None = None  # a postgresql:// DSN: the database is PostgreSQL
    metrics: MetricsEndpoint | None = None  # STUDYBOT_METRICS_PORT set: serve /metrics there
    log_level_given: bool = False  # STUDYBOT_LOG_LEVEL was set (else the console logs less)
    log_format: str = "text"  # "text" | "json"
    # Settings of a platform that is off (no token), given anyway: (name, what of it), for
    # `studybot doctor`; an invalid one is said so, though nothing reads it until a token is.
    idle: tuple[tuple[str, str], ...] = ()

    @property
    def engine(self) -> str:
        """The engine: `postgres` when `STUDYBOT_DATABASE` is a PostgreSQL URL, else `sqlite`."""
        return "sqlite" if self.postgres is None else "postgres"

    @property
    def strict_isolation(self) -> bool:
        """Whether grading needs every isolation layer: a public chat server's members are
        strangers; the console's user is the operator."""
        return self.isolation == "strict" or (not self.isolation and bool(self.platforms))

    @property
    def platforms(self) -> tuple[str, ...]:
        """The chat platforms whose tokens are set; none means the console."""
        return tuple(name for name, on in (("discord", self.discord), ("slack", self.slack)) if on)

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

        raw_database = get("STUDYBOT_DATABASE")
        postgres = _postgres(raw_database)
        sqlite = "" if postgres else raw_database
        return cls(
            database=_database(sqlite or str(default_database())),
            content_dir=_content_dir(get("STUDYBOT_CONTENT_DIR")),
            cache_dir=Path(get("STUDYBOT_CACHE_DIR") or default_cache()),
            log_level=_log_level(get("STUDYBOT_LOG_LEVEL")),
            grace=_minutes("STUDYBOT_GRACE_MINUTES", get("STUDYBOT_GRACE_MINUTES")),
            discord=DiscordSettings.from_values(get),
            slack=_slack(get),
            isolation=_choice(
                "STUDYBOT_GRADING_ISOLATION",
                get("STUDYBOT_GRADING_ISOLATION"),
                ("strict", "relaxed"),
            ),
            test_clock=ClockOverride.parse(values.get(TEST_CLOCK, "")),
            postgres=postgres,
            metrics=MetricsEndpoint.parse(
                get("STUDYBOT_METRICS_HOST"), get("STUDYBOT_METRICS_PORT")
            ),
            log_level_given=bool(values.get("STUDYBOT_LOG_LEVEL", "").strip()),
            log_format=_choice("STUDYBOT_LOG_FORMAT", get("STUDYBOT_LOG_FORMAT"), LOG_FORMATS),
            idle=_idle(values, get),
        )

    def describe(self) -> list[tuple[str, str]]:
        """Each setting with its effective value, secrets masked: for `studybot doctor`."""
        return [
            ("STUDYBOT_DATABASE", safe_dsn(self.postgres) if self.postgres else str(self.database)),
            ("STUDYBOT_CONTENT_DIR", str(self.content_dir)),
            ("STUDYBOT_CACHE_DIR", str(self.cache_dir)),
            ("STUDYBOT_LOG_LEVEL", self.log_level),
            ("STUDYBOT_LOG_FORMAT", self.log_format),
            ("STUDYBOT_GRACE_MINUTES", str(int(self.grace.total_seconds() // 60))),
            ("STUDYBOT_GRADING_ISOLATION", "strict" if self.strict_isolation else "relaxed"),
            ("STUDYBOT_METRICS_PORT", str(self.metrics.port) if self.metrics else "(not set)"),
            ("STUDYBOT_METRICS_HOST", self.metrics.host if self.metrics else "(not set)"),
            *(self.discord.describe() if self.discord else self._off("DISCORD_")),
            *(self.slack.describe() if self.slack else self._off("SLACK_")),
        ]

    def _off(self, prefix: str) -> list[tuple[str, str]]:
        """A platform that is not configured: its settings listed as such (or as ignored)."""
        idle = dict(self.idle)
        return [(d.name, idle.get(d.name, "(not set)")) for d in DOCS if d.name.startswith(prefix)]

    @property
    def invalid_idle(self) -> list[str]:
        """The idle settings that would stop start-up once their platform's token is set."""
        return [f"{name}: {why}" for name, why in self.idle if INVALID in why]

    def check_bank(self) -> None:
        """Raise ConfigError, naming the full path and the setting, if there is no bank
        where the settings say (checked by the commands that read it; an import may be
        about to create it)."""
        path = self.content_dir
        if not path.is_dir():
            why = "is not a directory" if path.exists() else "does not exist"
            raise ConfigError(f"STUDYBOT_CONTENT_DIR: the question bank '{path.resolve()}' {why}")

    @property
    def log_level_number(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]


def _snowflakes(name: str, raw: str) -> tuple[int, ...]:
    parts = [part.strip() for part in raw.split(",") if part.strip()]
    if not all(part.isdigit() for part in parts):
        raise ConfigError(f"{name}: '{raw}' is not a comma-separated list of numeric ids")
    return tuple(int(part) for part in parts)


MAX_SHARDS = 1 << 16  # far past any bot: Discord asks for one shard per 1,000 to 2,500 servers


MAX_RATE = 10_000.0  # requests a second: past any limit Discord grants


def _rate(name: str, raw: str) -> float:
    if not raw:
        return 45.0
    try:
        rate = float(raw)
    except ValueError:
        rate = 0.0
    if not 0 < rate <= MAX_RATE:
        raise ConfigError(f"{name}: '{raw}' is not a number of requests a second from 0 to "
                          f"{MAX_RATE:g} (Discord allows 50)")  # fmt: skip
    return rate


def _shard_count(raw: str) -> int | None:
    if not raw:
        return None
    if not raw.isdigit() or not 0 < int(raw) <= MAX_SHARDS:
        raise ConfigError(f"DISCORD_SHARD_COUNT: '{raw}' is not a number of shards from 1 to "
                          f"{MAX_SHARDS}")  # fmt: skip
    return int(raw)


def _shard_ids(raw: str, count: int | None) -> tuple[int, ...]:
    """`0,1` or `0-3,8`: each id once, each below the count (which must be set)."""
    if not raw:
        return ()
    if count is None:
        raise ConfigError("DISCORD_SHARD_IDS: needs DISCORD_SHARD_COUNT, the total number of "
                          "shards across every process")  # fmt: skip
    ids: list[int] = []
    for part in (p.strip() for p in raw.split(",")):
        first, last = _shard_range(part, count)
        if repeated := set(ids).intersection(range(first, last + 1)):
            raise ConfigError(f"DISCORD_SHARD_IDS: shard {min(repeated)} is listed twice")
        ids += range(first, last + 1)
    return tuple(ids)


def _shard_range(part: str, count: int) -> tuple[int, int]:
    """One item of `DISCORD_SHARD_IDS`, `3` or `0-3`, as its first and last id."""
    first, dash, last = part.partition("-")
    if not first.isdigit() or (dash and not last.isdigit()):
        raise ConfigError(f"DISCORD_SHARD_IDS: '{part}' is not a shard id or a range like 0-3")
    low, high = int(first), int(last if dash else first)
    if high < low:
        raise ConfigError(f"DISCORD_SHARD_IDS: the range '{part}' runs backwards")
    if high >= count:
        raise ConfigError(f"DISCORD_SHARD_IDS: shard {high} is not below DISCORD_SHARD_COUNT "
                          f"({count}); ids run from 0 to {count - 1}")  # fmt: skip
    return low, high


def _url(name: str, raw: str, scheme: str) -> str:
    if not raw.startswith((f"{scheme}://", f"{scheme}s://")):
        raise ConfigError(f"{name}: '{raw}' is not a {scheme}:// or {scheme}s:// URL")
    return raw


def _choice(name: str, raw: str, choices: tuple[str, ...]) -> str:
    value = raw.lower()
    if value and value not in choices:
        raise ConfigError(f"{name}: '{raw}' is not one of " + ", ".join(choices))
    return value


def _flag(name: str, raw: str) -> bool:
    value = raw.lower()
    if value not in {"true", "false", "1", "0", "yes", "no"}:
        raise ConfigError(f"{name}: '{raw}' is not true or false")
    return value in {"true", "1", "yes"}


INVALID = "and invalid"
# A token's stand-in, to check a platform's other settings while its token is not set.
_STAND_INS = {"DISCORD_TOKEN": "x.y.z", "SLACK_BOT_TOKEN": "xoxb-x", "SLACK_APP_TOKEN": "xapp-x"}


def _idle(values: Mapping[str, str], get: Callable[[str], str]) -> tuple[tuple[str, str], ...]:
    """Each platform setting given while its platform's token is not: ignored, and if its
    value would not be accepted, why (so `doctor` does not call a broken setup ok)."""
    found: list[tuple[str, str]] = []
    for token, prefix, parse in (("DISCORD_TOKEN", "DISCORD_", DiscordSettings.from_values),
                                 ("SLACK_BOT_TOKEN", "SLACK_", _slack)):  # fmt: skip
        given = [d.name for d in DOCS
                 if d.name.startswith(prefix) and values.get(d.name, "").strip()]  # fmt: skip
        if get(token) or not given:
            continue
        try:
            parse(lambda name: get(name) or _STAND_INS.get(name, ""))
            fault = ""
        except ConfigError as exc:
            fault = f", {INVALID}: {exc}"
        found += [(name, f"(set, ignored: {token} is not set{fault})") for name in given]
    return tuple(found)


def _slack(get: Callable[[str], str]) -> SlackSettings | None:
    bot, app, secret = get("SLACK_BOT_TOKEN"), get("SLACK_APP_TOKEN"), get("SLACK_SIGNING_SECRET")
    if not bot:
        if app or secret:
            raise ConfigError("SLACK_BOT_TOKEN: needed with SLACK_APP_TOKEN/SLACK_SIGNING_SECRET")
        return None
    _prefixed("SLACK_BOT_TOKEN", bot, "xoxb-")
    if app:
        _prefixed("SLACK_APP_TOKEN", app, "xapp-")
    elif not secret:
        raise ConfigError(
            "SLACK_APP_TOKEN: set it for Socket Mode, or SLACK_SIGNING_SECRET for HTTP mode"
        )
    return SlackSettings(
        bot_token=Secret(bot),
        app_token=Secret(app) if app else None,
        signing_secret=Secret(secret) if secret else None,
        http_port=_port("SLACK_HTTP_PORT", get("SLACK_HTTP_PORT")),
        admin_user_ids=_ids(get("SLACK_ADMIN_USER_IDS")),
        moderator_user_ids=_user_ids("SLACK_MODERATOR_USER_IDS", get("SLACK_MODERATOR_USER_IDS")),
        api_base_url=_base_url("SLACK_API_BASE_URL", get("SLACK_API_BASE_URL")),
    )


def _ids(raw: str) -> frozenset[str]:
    return frozenset(part.strip() for part in raw.split(",") if part.strip())


SLACK_USER_ID = re.compile(r"[UW][A-Z0-9]{2,20}")  # U... or, on Enterprise Grid, W...


def _user_ids(name: str, raw: str) -> frozenset[str]:
    """Slack user ids, checked: a name or an @mention in their place would never match."""
    ids = _ids(raw)
    wrong = sorted(i for i in ids if not SLACK_USER_ID.fullmatch(i))
    if wrong:
        raise ConfigError(f"{name}: '{wrong[0]}' is not a Slack user id (U0123ABCD)")
    return ids


def _prefixed(name: str, value: str, prefix: str) -> None:
    if not value.startswith(prefix):
        raise ConfigError(f"{name}: expected a token starting with {prefix}")  # value not shown


def _port(name: str, raw: str) -> int:
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise ConfigError(f"{name}: '{raw}' is not a port number from 1 to 65535")
    return int(raw)


def _base_url(name: str, raw: str) -> str:
    if not raw.startswith(("http://", "https://")):
        raise ConfigError(f"{name}: '{raw}' is not an http(s) URL")
    return raw if raw.endswith("/") else raw + "/"


def default_database() -> Path:
    """Where the database lives unless told: the user's data directory, whatever the
    current folder (`studybot` works the same from anywhere)."""
    return Path(platformdirs.user_data_dir("studybot", appauthor=False)) / "studybot.sqlite3"


def default_cache() -> Path:
    """Where computed problem tests and proofs are kept unless told: the user's cache
    directory (anything there can be deleted; it is computed again)."""
    return Path(platformdirs.user_cache_dir("studybot", appauthor=False))


def bundled_content() -> Path:
    """The bank installed with studybot: `content/` beside the `bot` package (a source
    checkout or an editable install; the container image sets STUDYBOT_CONTENT_DIR)."""
    return Path(__file__).resolve().parent.parent / "content"


def _content_dir(raw: str) -> Path:
    return Path(raw) if raw else bundled_content()


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def _postgres(raw: str) -> Secret | None:
    """The DSN when `raw` is a PostgreSQL URL (kept secret: it may hold a password)."""
    if not raw.startswith(POSTGRES_SCHEMES):
        return None
    if not urlsplit(raw).hostname and "host=" not in raw:
        raise ConfigError("STUDYBOT_DATABASE: a postgresql:// URL needs a host")
    return Secret(raw)


def safe_dsn(dsn: Secret) -> str:
    """The DSN as it may be shown: user, host, port and database; never the password."""
    parts = urlsplit(dsn.reveal())
    host = parts.hostname or ""
    where = f"{parts.username}@{host}" if parts.username else host
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{where}{port}{parts.path}"


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
