from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.clock import ScaledClock
from bot.errors import ConfigError
from bot.settings import DOCS, ClockOverride, DiscordSettings, Secret, Settings
from tests.fakes import REPO, Ticks
from tests.waiting import PATIENCE


def test_defaults_do_not_depend_on_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    settings = Settings.from_mapping({})
    assert settings.database == tmp_path / "xdg" / "studybot" / "studybot.sqlite3"
    assert settings.content_dir == REPO / "content"
    assert settings.log_level == "INFO"
    assert settings.grace == timedelta(hours=1)
    assert Settings.from_mapping({"STUDYBOT_GRACE_MINUTES": "15"}).grace == timedelta(minutes=15)


def test_environment_overrides_the_env_file(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    (tmp_path / "bank").mkdir()
    (tmp_path / "elsewhere").mkdir()
    env_file.write_text(f"STUDYBOT_LOG_LEVEL=debug\nSTUDYBOT_CONTENT_DIR={tmp_path}/bank\n")
    settings = Settings.load({"STUDYBOT_CONTENT_DIR": str(tmp_path / "elsewhere")}, env_file)
    assert settings.log_level == "DEBUG"
    assert settings.content_dir == tmp_path / "elsewhere"


def test_a_missing_bank_names_its_full_path_and_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as error:
        Settings.from_mapping({"STUDYBOT_CONTENT_DIR": "nowhere"}).check_bank()
    assert str(error.value) == (
        f"STUDYBOT_CONTENT_DIR: the question bank '{tmp_path / 'nowhere'}' does not exist"
    )


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ({"STUDYBOT_LOG_LEVEL": "LOUD"}, "STUDYBOT_LOG_LEVEL"),
        ({"STUDYBOT_DATABASE": "."}, "STUDYBOT_DATABASE"),
        ({"STUDYBOT_GRACE_MINUTES": "an hour"}, "STUDYBOT_GRACE_MINUTES"),
        ({"STUDYBOT_GRACE_MINUTES": "5000"}, "STUDYBOT_GRACE_MINUTES"),
    ],
)
def test_a_wrong_value_names_the_setting(values: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        Settings.from_mapping(values)


def test_secrets_never_show_their_value() -> None:
    secret = Secret("xoxb-123456789012-abcdefghijkl")
    assert "abcdef" not in repr(secret) and "abcdef" not in str(secret)
    assert "abcdef" not in f"{secret}" and "abcdef" not in secret.masked()
    assert secret.reveal().endswith("abcdefghijkl")


def test_describe_lists_every_documented_setting() -> None:
    described = [name for name, _ in Settings.from_mapping({}).describe()]
    assert described == [doc.name for doc in DOCS]


def test_discord_shards_are_split_by_count_and_ids() -> None:
    def discord(**values: str) -> DiscordSettings:
        found = Settings.from_mapping({"DISCORD_TOKEN": "a.b.c", **values}).discord
        assert found is not None
        return found

    alone = discord()
    assert not alone.sharded and alone.shard_count is None and alone.shards_here == ()
    recommended = discord(DISCORD_SHARDED="true")  # Discord's count, every shard here
    assert recommended.sharded and recommended.shard_count is None
    everything = discord(DISCORD_SHARD_COUNT="3")
    assert everything.sharded and everything.shards_here == (0, 1, 2)
    part = discord(DISCORD_SHARD_COUNT="8", DISCORD_SHARD_IDS=" 0-2, 6 ")
    assert part.shard_ids == (0, 1, 2, 6) and part.shards_here == (0, 1, 2, 6)
    described = dict(Settings.from_mapping({"DISCORD_TOKEN": "a.b.c", "DISCORD_SHARD_COUNT": "8",
                                            "DISCORD_SHARD_IDS": "0-2,6"}).describe())  # fmt: skip
    assert described["DISCORD_SHARD_COUNT"] == "8"
    assert described["DISCORD_SHARD_IDS"] == "0,1,2,6"


def test_discord_is_off_without_a_token_and_typed_with_one() -> None:
    assert Settings.from_mapping({}).discord is None
    assert Settings.from_mapping({}).platforms == ()
    settings = Settings.from_mapping({"DISCORD_TOKEN": "Bot abc.def.ghi",
                                      "DISCORD_GUILD_IDS": "123, 456",
                                      "DISCORD_MESSAGE_CONTENT": "yes"})  # fmt: skip
    assert settings.discord is not None and settings.platforms == ("discord",)
    assert settings.discord.token.reveal() == "abc.def.ghi"
    assert settings.discord.guild_ids == (123, 456)
    assert settings.discord.message_content and not settings.discord.sharded
    assert settings.discord.api_base_url == "https://discord.com/api/v10"
    described = dict(settings.describe())
    assert "abc.def.ghi" not in str(described) and described["DISCORD_GUILD_IDS"] == "123,456"


SLACK = {"SLACK_BOT_TOKEN": "xoxb-1-2-abcdefghijkl"}


def test_moderators_are_configured_by_discord_role_and_by_slack_user() -> None:
    settings = Settings.from_mapping({"DISCORD_TOKEN": "a.b.c",
                                      "DISCORD_MODERATOR_ROLE_IDS": " 900, 800,,900",
                                      **SLACK, "SLACK_SIGNING_SECRET": "s3cr3tvalue-abcdef",
                                      "SLACK_MODERATOR_USER_IDS": "U0MOD1, W0GRID2,"})  # fmt: skip
    assert settings.discord is not None and settings.slack is not None
    assert settings.discord.moderator_role_ids == {800, 900}
    assert settings.slack.moderator_user_ids == {"U0MOD1", "W0GRID2"}
    assert settings.slack.admin_user_ids == frozenset()  # moderating is not administering
    described = dict(settings.describe())
    assert described["DISCORD_MODERATOR_ROLE_IDS"] == "800,900"
    assert described["SLACK_MODERATOR_USER_IDS"] == "U0MOD1,W0GRID2"
    unset = dict(Settings.from_mapping({"DISCORD_TOKEN": "a.b.c", **SLACK,
                                        "SLACK_SIGNING_SECRET": "s"}).describe())  # fmt: skip
    assert unset["DISCORD_MODERATOR_ROLE_IDS"] == "(Manage Messages only)"
    assert unset["SLACK_MODERATOR_USER_IDS"] == "(admins only)"


def test_slack_is_off_without_a_bot_token_and_its_mode_follows_the_tokens() -> None:
    assert Settings.from_mapping({}).slack is None
    socket = Settings.from_mapping({**SLACK, "SLACK_APP_TOKEN": "xapp-1-A-3-abcdefghijkl"}).slack
    assert socket is not None and socket.socket_mode
    http = Settings.from_mapping({**SLACK, "SLACK_SIGNING_SECRET": "s3cr3tvalue-abcdef",
                                  "SLACK_HTTP_PORT": "8080",
                                  "SLACK_ADMIN_USER_IDS": "U1, U2,,"}).slack  # fmt: skip
    assert http is not None and not http.socket_mode
    assert http.http_port == 8080 and http.admin_user_ids == {"U1", "U2"}
    assert http.api_base_url == "https://slack.com/api/"
    described = dict(Settings.from_mapping({**SLACK, "SLACK_APP_TOKEN": "xapp-1-A-3-abcdefghijkl"})
                     .describe())  # fmt: skip
    assert "abcdefghijkl" not in str(described)
    assert described["SLACK_SIGNING_SECRET"] == "(not set)"


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ({"DISCORD_GUILD_IDS": "my-server"}, "DISCORD_GUILD_IDS"),
        ({"DISCORD_MODERATOR_ROLE_IDS": "123, @Mods"}, "DISCORD_MODERATOR_ROLE_IDS: '123, @Mods'"),
        ({"DISCORD_API_BASE_URL": "discord.com/api"}, "DISCORD_API_BASE_URL"),
        ({"DISCORD_GATEWAY_URL": "http://gateway"}, "DISCORD_GATEWAY_URL"),
        ({"DISCORD_SHARDED": "maybe"}, "DISCORD_SHARDED"),
        ({"DISCORD_SHARD_COUNT": "0"}, "DISCORD_SHARD_COUNT"),
        ({"DISCORD_SHARD_COUNT": "two"}, "DISCORD_SHARD_COUNT"),
        ({"DISCORD_SHARD_IDS": "0"}, "DISCORD_SHARD_IDS: needs DISCORD_SHARD_COUNT"),
        ({"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": "1,2"},
         r"DISCORD_SHARD_IDS: shard 2 is not below DISCORD_SHARD_COUNT \(2\)"),
        ({"DISCORD_SHARD_COUNT": "4", "DISCORD_SHARD_IDS": "0-2,2"},
         "DISCORD_SHARD_IDS: shard 2 is listed twice"),
        ({"DISCORD_SHARD_COUNT": "4", "DISCORD_SHARD_IDS": "0,0"},
         "DISCORD_SHARD_IDS: shard 0 is listed twice"),
        ({"DISCORD_SHARD_COUNT": "4", "DISCORD_SHARD_IDS": "3-1"}, "DISCORD_SHARD_IDS: the range"),
        ({"DISCORD_SHARD_COUNT": "4", "DISCORD_SHARD_IDS": "a"}, "DISCORD_SHARD_IDS: 'a'"),
    ],
)  # fmt: skip
def test_a_wrong_discord_value_names_the_setting(values: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        Settings.from_mapping({"DISCORD_TOKEN": "a.b.c", **values})


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ({"SLACK_APP_TOKEN": "xapp-1"}, "SLACK_BOT_TOKEN"),
        ({"SLACK_BOT_TOKEN": "xoxp-user-token"}, "SLACK_BOT_TOKEN"),
        (SLACK, "SLACK_APP_TOKEN"),
        ({**SLACK, "SLACK_APP_TOKEN": "xoxb-wrong-kind"}, "SLACK_APP_TOKEN"),
        ({**SLACK, "SLACK_SIGNING_SECRET": "s", "SLACK_HTTP_PORT": "http"}, "SLACK_HTTP_PORT"),
        ({**SLACK, "SLACK_SIGNING_SECRET": "s", "SLACK_API_BASE_URL": "slack"},
         "SLACK_API_BASE_URL"),
        ({**SLACK, "SLACK_SIGNING_SECRET": "s", "SLACK_MODERATOR_USER_IDS": "U1ABC, @alice"},
         "SLACK_MODERATOR_USER_IDS: '@alice' is not a Slack user id"),
    ],
)  # fmt: skip
def test_a_wrong_slack_setting_is_named_and_its_value_not_shown(
    values: dict[str, str], named: str
) -> None:
    with pytest.raises(ConfigError, match=named) as raised:
        Settings.from_mapping(values)
    assert "xoxp-user-token" not in str(raised.value)


def test_grading_isolation_is_strict_with_a_platform_and_relaxed_for_the_console() -> None:
    token = {"DISCORD_TOKEN": "MTA.x.y"}
    assert not Settings.from_mapping({}).strict_isolation
    assert Settings.from_mapping(token).strict_isolation
    relaxed = {**token, "STUDYBOT_GRADING_ISOLATION": "relaxed"}
    assert not Settings.from_mapping(relaxed).strict_isolation
    assert Settings.from_mapping({"STUDYBOT_GRADING_ISOLATION": "STRICT"}).strict_isolation
    with pytest.raises(ConfigError, match="STUDYBOT_GRADING_ISOLATION: 'paranoid'"):
        Settings.from_mapping({"STUDYBOT_GRADING_ISOLATION": "paranoid"})


def test_a_test_clock_is_a_start_and_a_speed_and_off_by_default() -> None:
    assert Settings.from_mapping({}).test_clock is None
    clock = Settings.from_mapping({"STUDYBOT_TEST_CLOCK": "2026-01-05T09:02:20*10"}).test_clock
    assert clock == ClockOverride(datetime(2026, 1, 5, 9, 2, 20, tzinfo=UTC), 10.0)
    for bad in ("tomorrow", "2026-01-05T09:00:00+00:00*0", "2026-01-05T09:00*x"):
        with pytest.raises(ConfigError, match="STUDYBOT_TEST_CLOCK"):
            Settings.from_mapping({"STUDYBOT_TEST_CLOCK": bad})
    assert all(doc.name != "STUDYBOT_TEST_CLOCK" for doc in DOCS)  # not a setting for operators


async def test_the_scaled_clock_starts_where_asked_and_runs_faster() -> None:
    start = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    ticks = Ticks()
    clock = ScaledClock(start, speed=600.0, monotonic=ticks)
    assert clock.now() == start
    ticks.now += 0.5
    assert clock.now() == start + timedelta(minutes=5)  # half a second of wall time
    # On the real clock, an hour at 36,000 times is 0.1 s: unscaled it would be an hour,
    # sixty times the wait allowed, so no machine's speed decides this.
    fast = ScaledClock(start, speed=36_000.0)
    await asyncio.wait_for(fast.sleep_until(start + timedelta(hours=1)), PATIENCE)
    assert fast.now() >= start + timedelta(hours=1)


def test_a_postgresql_url_selects_postgres_and_its_password_is_never_shown() -> None:
    dsn = "postgresql://bot:s3cret-pw@db.internal:5433/studybot"
    settings = Settings.from_mapping({"STUDYBOT_DATABASE": dsn})
    assert settings.engine == "postgres"
    assert settings.postgres is not None and settings.postgres.reveal() == dsn
    shown = dict(settings.describe())["STUDYBOT_DATABASE"]
    assert shown == "postgresql://bot@db.internal:5433/studybot"
    assert "s3cret" not in repr(settings) and "s3cret" not in str(settings.describe())
    assert Settings.from_mapping({}).engine == "sqlite"
    assert Settings.from_mapping({}).postgres is None


def test_a_postgresql_url_without_a_host_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"STUDYBOT_DATABASE: .* needs a host"):
        Settings.from_mapping({"STUDYBOT_DATABASE": "postgresql:///studybot"})
