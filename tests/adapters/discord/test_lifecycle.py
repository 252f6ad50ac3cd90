"""Restarts, reconnects and a rejected token, against the local Discord."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry

from adapters.discord.run import serve
from adapters.telemetry.prometheus import PrometheusMetrics
from bot.app import App, open_app
from bot.errors import ConfigError
from bot.settings import Settings
from bot.store.db import Database
from tests.adapters.discord.conftest import Running, connected, settings_for
from tests.adapters.discord.stub import CHANNEL_ID, DiscordStub, message_json
from tests.adapters.discord.test_interactions import COMMAND, COMPONENT, answered, slash
from tests.fakes import REPO, FakeClock
from tests.waiting import until


async def test_buttons_posted_before_a_restart_still_work(stub: DiscordStub, app: App) -> None:
    async with connected(stub, app) as first:
        posted = await answered(
            stub, await stub.interact(COMMAND, slash("question", id="gpu-memory"))
        )
        assert first.client.is_ready()
    assert "discord" not in app.platforms  # the stopped client detached itself
    async with connected(stub, app):
        old = message_json(CHANNEL_ID, stub.next_id(), posted)
        click = {"custom_id": posted["components"][0]["components"][0]["custom_id"],
                 "component_type": 2}  # fmt: skip
        reply = await answered(stub, await stub.interact(COMPONENT, click, message=old))
    assert reply["embeds"][0]["description"] == "减小batch，使用梯度检查点，或者张量并行。"
    assert stub.gateway.connections == 2


async def test_op7_reconnect_resumes_the_session_and_keeps_serving(bot: Running) -> None:
    stub = bot.stub
    bot.app.platforms.detach("discord")  # as if it had gone: the resume attaches it again
    await stub.ask_to_reconnect()
    resume = await stub.wait_for(lambda: next((o for o in stub.gateway.ops if o["op"] == 6), None))
    assert resume["d"]["session_id"] == "session-1" and resume["d"]["token"] == stub.token
    assert resume["d"]["seq"] >= 2  # READY and GUILD_CREATE were seen
    assert stub.gateway.connections == 2
    assert [o["op"] for o in stub.gateway.ops].count(2) == 1  # resumed, not re-identified
    reply = await answered(stub, await stub.interact(COMMAND, slash("topics")))
    assert reply["embeds"][0]["title"] == "Topics"
    assert bot.app.platforms.get("discord") is bot.client.adapter  # RESUMED came before it


async def test_a_rejected_token_stops_with_a_config_error(stub: DiscordStub, app: App) -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN: Discord rejected the token"):
        await serve(app.core, app.platforms, settings_for(stub, token="wrong.token.value"))
    assert not stub.gateway.connections


async def test_studybot_run_exits_non_zero_on_a_bad_token(
    stub: DiscordStub, tmp_path: Path
) -> None:
    env = {**os.environ, "STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3"),
           "STUDYBOT_CONTENT_DIR": str(REPO / "content"), "DISCORD_TOKEN": "wrong.token.value",
           "DISCORD_API_BASE_URL": stub.api, "DISCORD_GATEWAY_URL": stub.ws_url}  # fmt: skip
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 2
    message = err.decode()
    assert "configuration error: DISCORD_TOKEN: Discord rejected the token" in message
    assert "wrong.token.value" not in message
    assert "starting the console" not in message


async def test_a_resumed_session_counts_as_a_reconnect(
    stub: DiscordStub, settings: Settings, loaded_database: Database, clock: FakeClock
) -> None:
    registry = CollectorRegistry()
    reconnects = "studybot_platform_reconnects_total"
    metrics = PrometheusMetrics(registry)
    async with (
        open_app(settings, clock=clock, grading=False, metrics=metrics) as app,
        connected(stub, app),
    ):
        assert registry.get_sample_value(reconnects, {"platform": "discord"}) is None
        await stub.ask_to_reconnect()
        await stub.wait_for(lambda: next((o for o in stub.gateway.ops if o["op"] == 6), None))
        await until(lambda: registry.get_sample_value(reconnects, {"platform": "discord"}) == 1)
