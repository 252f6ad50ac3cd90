"""The app manifest declares exactly what the adapter handles, and the CLI prints it."""

from __future__ import annotations

from click.testing import CliRunner

from adapters.slack.app import EVENTS, SLASH_COMMAND
from adapters.slack.manifest import manifest, manifest_text
from bot.cli import cli
from bot.commands.spec import COMMANDS


def test_the_manifest_matches_the_listeners() -> None:
    app = manifest()
    commands = app["features"]["slash_commands"]
    assert [c["command"] for c in commands] == [SLASH_COMMAND]
    assert set(app["settings"]["event_subscriptions"]["bot_events"]) == set(EVENTS)
    assert app["settings"]["interactivity"]["is_enabled"] is True
    assert app["settings"]["socket_mode_enabled"] is True
    assert app["features"]["app_home"]["home_tab_enabled"] is True
    scopes = set(app["oauth_config"]["scopes"]["bot"])
    needed = {"commands", "chat:write", "app_mentions:read", "users:read", "channels:history"}
    assert needed <= scopes
    hint = commands[0]["usage_hint"]
    core_commands = {spec.name for spec in COMMANDS}
    assert {"question", "answer", "search", "topics", "schedule", "help"} <= core_commands
    assert all(name in hint for name in ("question", "search", "schedule"))
    assert len(app["display_information"]["name"]) <= 35


def test_studybot_slack_manifest_prints_it() -> None:
    result = CliRunner().invoke(cli, ["slack", "manifest"])
    assert result.exit_code == 0
    assert result.output == manifest_text()
