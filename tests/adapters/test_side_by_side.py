"""`studybot run` with Discord and Slack both configured: one process, one event loop, one
scheduler, each platform answering its own users (against the local stubs of both)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord
import pytest

from bot.cli.serve import platforms, serve
from bot.settings import Settings
from tests.adapters.discord.stub import TOKEN, DiscordStub
from tests.adapters.discord.test_interactions import COMMAND, slash
from tests.adapters.slack.conftest import APP_TOKEN, BOT_TOKEN, MEMBER, command_form
from tests.adapters.slack.stub import SlackStub
from tests.fakes import REPO


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)


async def test_discord_and_slack_run_side_by_side(tmp_path: Path) -> None:
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    slack = SlackStub()
    await slack.start()
    slack.add_user(MEMBER)
    try:
        async with DiscordStub() as disc:
            settings = Settings.from_mapping({
                "STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3"),
                "STUDYBOT_CONTENT_DIR": str(REPO / "content"),
                "DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE_URL": disc.api,
                "DISCORD_GATEWAY_URL": disc.ws_url,
                "SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_APP_TOKEN": APP_TOKEN,
                "SLACK_API_BASE_URL": slack.api_url,
            })  # fmt: skip
            configured = platforms(settings)
            assert list(configured) == ["discord", "slack"]
            running = asyncio.create_task(serve(settings, list(configured.values())))
            try:
                await slack.wait_socket()
                form = command_form(slack, "search allreduce")
                ack = await slack.envelope("slash_commands", form)
                assert "allreduce-communication-cost" in str(ack["payload"]["blocks"])
                identified = [op for op in disc.gateway.ops if op["op"] == 2]
                await disc.wait_for(lambda: identified or [
                    op for op in disc.gateway.ops if op["op"] == 2])  # fmt: skip
                iid = await disc.interact(COMMAND, slash("question", id="python-gil"))
                callback = await disc.wait_for(lambda: disc.callback(iid))
                assert "GIL" in str(callback)
                assert slack.called("chat.postMessage") == []  # each answered only its own
            finally:
                running.cancel()
                await asyncio.gather(running, return_exceptions=True)
    finally:
        await slack.close()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
