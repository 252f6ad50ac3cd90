"""The composition root with Slack configured: `studybot run`'s serve() connects Slack beside
the scheduler, and `studybot doctor` checks the token with Slack."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.cli.doctor import diagnose
from bot.cli.serve import platforms, serve
from bot.settings import Settings
from tests.adapters.slack.conftest import APP_TOKEN, BOT_TOKEN, SIGNING_SECRET, command_form
from tests.adapters.slack.stub import SlackStub
from tests.fakes import REPO


def env(stub: SlackStub, tmp_path: Path, **extra: str) -> Settings:
    return Settings.from_mapping({
        "STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3"),
        "STUDYBOT_CONTENT_DIR": str(REPO / "content"),
        "SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_API_BASE_URL": stub.api_url, **extra,
    })  # fmt: skip


async def test_run_serves_slack_in_socket_mode_until_stopped(
    stub: SlackStub, tmp_path: Path
) -> None:
    settings = env(stub, tmp_path, SLACK_APP_TOKEN=APP_TOKEN)
    configured = platforms(settings)
    assert list(configured) == ["slack"]
    running = asyncio.create_task(serve(settings, list(configured.values())))
    try:
        await stub.wait_socket()
        ack = await stub.envelope("slash_commands", command_form(stub, "search allreduce"))
        assert "allreduce-communication-cost" in str(ack["payload"]["blocks"])
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
    assert running.cancelled()


async def test_doctor_checks_the_slack_token(stub: SlackStub, tmp_path: Path) -> None:
    lines, _ = await diagnose(env(stub, tmp_path, SLACK_SIGNING_SECRET=SIGNING_SECRET))
    assert "slack: HTTP mode, port 3000; ok, workspace Test as @studybot" in lines
    assert BOT_TOKEN not in "\n".join(lines) and SIGNING_SECRET not in "\n".join(lines)
    stub.refuse("auth.test", "invalid_auth")
    lines, healthy = await diagnose(env(stub, tmp_path, SLACK_APP_TOKEN=APP_TOKEN))
    assert not healthy and "slack: Socket Mode; auth.test refused: invalid_auth" in lines
