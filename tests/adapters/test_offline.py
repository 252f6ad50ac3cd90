"""`studybot run` with the platform's network down at start, and lost later: one clear line
per failed attempt, retries with backoff, no traceback for what is only the network, and a
clean stop on SIGTERM whenever it comes.

The bot runs as a process (`studybot run`), the real discord.py and slack-bolt clients talking
to the local stubs through a relay the test switches off and on (tests/adapters/relay.py).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from tests.adapters.discord.stub import DiscordStub
from tests.adapters.relay import Relay, free_port
from tests.e2e.process import Run, studybot_run

CLOCK = "2026-03-02T00:00:00+00:00*1"


def lines_with(run: Run, text: str) -> int:
    return sum(text in line for line in run.err)


async def until_logged(run: Run, text: str, count: int) -> None:
    await run._wait(lambda: lines_with(run, text) >= count, f"{count} x {text!r}")


def no_tracebacks(run: Run) -> None:
    log = "".join(run.err)
    assert "Traceback" not in log, log
    assert "ERROR" not in log, log


def port_of(url: str) -> int:
    port = urlsplit(url).port
    assert port is not None
    return port


async def test_discord_down_at_start_then_up_then_lost_and_back(
    discord_stub: DiscordStub, tmp_path: Path
) -> None:
    stub = discord_stub
    async with (
        Relay(free_port(), port_of(stub.url)) as api,
        Relay(free_port(), port_of(stub.url)) as gateway,
    ):
        run = await _down_up_lost_back(stub, api, gateway, tmp_path)
    no_tracebacks(run)
    assert "voice will NOT be supported" not in "".join(run.err)
    assert stub.token not in "".join(run.err)


async def _down_up_lost_back(stub: DiscordStub, api: Relay, gateway: Relay,
                             tmp_path: Path) -> Run:  # fmt: skip
    stub.resume_url = f"ws://127.0.0.1:{gateway.port}/"  # resuming goes through the relay too
    env = {"DISCORD_TOKEN": stub.token,
           "DISCORD_API_BASE_URL": f"http://127.0.0.1:{api.port}/api/v10",
           "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{gateway.port}/"}  # fmt: skip
    async with studybot_run(tmp_path / "bot.sqlite3", CLOCK, **env) as run:
        # Down at start: logging in fails, and is tried again, a line each time.
        await until_logged(run, "Discord is unreachable", 2)
        assert not stub.requests
        await api.up()
        await gateway.up()
        await stub.wait_for(lambda: stub.gateway.connections == 1 and stub.gateway.ops)
        # Lost later: the gateway's connection is cut and new ones are refused.
        await gateway.down()
        await until_logged(run, "Attempting a reconnect", 2)
        await gateway.up()
        await stub.wait_for(lambda: stub.gateway.connections == 2)
        status = await run.stop()
    assert status == 0
    return run


async def test_sigterm_while_discord_is_unreachable(tmp_path: Path) -> None:
    env = {"DISCORD_TOKEN": "MTIz.abc.def",
           "DISCORD_API_BASE_URL": f"http://127.0.0.1:{free_port()}/api/v10"}  # fmt: skip
    async with studybot_run(tmp_path / "bot.sqlite3", CLOCK, **env) as run:
        await until_logged(run, "Discord is unreachable", 1)
        status = await run.stop()
    assert status == 0
    no_tracebacks(run)


async def test_slack_socket_mode_down_at_start(tmp_path: Path) -> None:
    env = {"SLACK_BOT_TOKEN": "xoxb-1-2-abc", "SLACK_APP_TOKEN": "xapp-1-A-abc",
           "SLACK_API_BASE_URL": f"http://127.0.0.1:{free_port()}/api/"}  # fmt: skip
    async with studybot_run(tmp_path / "bot.sqlite3", CLOCK, **env) as run:
        await until_logged(run, "Failed to connect", 2)
        status = await run.stop()
    assert status == 0
    log = "".join(run.err)
    assert "Traceback" not in log, log
    assert "xoxb-1-2-abc" not in log and "xapp-1-A-abc" not in log
