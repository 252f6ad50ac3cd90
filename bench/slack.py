"""Benchmarks of the Slack adapter's acknowledgements (`python -m bench slack`).

The real slack-bolt app (as `studybot run` builds it) against the local Slack of the tests
(tests/adapters/slack/stub.py) on 127.0.0.1, over the bundled question bank:

- a signed slash command to its ack, in HTTP mode, for `/study question <id>` and
  `/study search 显存`       vs  `Studybot.handle_line` called directly (the floor)
- a Socket Mode envelope to its ack, for the same commands
- with slow commands in the core (CommandSpec.slow): their ack, which must not wait for the work

Slack's deadline is 3 s; the target here is an ack p95 under 50 ms. Requests are sequential
(one person at a time), after a warm-up that fills the users.info cache.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp

from adapters.slack.modes import RunningSlack, running_slack
from bot.app import App, open_app
from bot.commands.spec import COMMANDS
from bot.interpreter import tune_interpreter
from bot.settings import Secret, Settings, SlackSettings
from bot.types import ChannelRef, Locale, User
from tests.adapters.slack.conftest import command_form, sign
from tests.adapters.slack.stub import SlackStub

ROUNDS = 300
BANK = Path(__file__).resolve().parents[1] / "content"
SECRET = "bench-signing-secret-0123456789"
COMMANDS_TIMED = {"question": "question allreduce-communication-cost", "search": "search 显存"}


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.95) - 1] * 1000


async def timed(action: Callable[[], Awaitable[object]], rounds: int = ROUNDS) -> list[float]:
    for _ in range(10):  # warm-up: caches, connections, auth.test
        await action()
    samples = []
    for _ in range(rounds):
        began = time.perf_counter()
        await action()
        samples.append(time.perf_counter() - began)
    return samples


def report(label: str, samples: list[float], floor: list[float] | None = None) -> None:
    p50, p95 = percentiles(samples)
    extra = ""
    if floor is not None:
        f50, f95 = percentiles(floor)
        extra = f"   core floor p50 {f50:6.2f} ms  p95 {f95:6.2f} ms   adapter +{p50 - f50:.1f} ms"
    verdict = "ok" if p95 < 50 else "OVER TARGET"
    print(f"{label:<44} p50 {p50:6.2f} ms  p95 {p95:6.2f} ms  ({verdict}){extra}")


def slack_settings(stub: SlackStub, *, socket: bool) -> SlackSettings:
    return SlackSettings(
        bot_token=Secret("xoxb-bench-token-0123456789"),
        app_token=Secret("xapp-bench-token-0123456789") if socket else None,
        signing_secret=None if socket else Secret(SECRET),
        http_port=0,
        api_base_url=stub.api_url,
    )


async def bench_http(app: App, stub: SlackStub, floors: dict[str, list[float]]) -> None:
    async with (
        running_slack(app, slack_settings(stub, socket=False), host="127.0.0.1") as running,
        aiohttp.ClientSession() as http,
    ):
        for name, text in COMMANDS_TIMED.items():
            samples = await timed(lambda text=text: _post(http, running, stub, text))
            report(f"HTTP: signed /study {name} -> ack", samples, floors[name])
        slow = [spec.name for spec in COMMANDS if spec.slow]
        if slow:  # one at a time: each grade finishes before the next command is sent
            samples = []
            for n in range(30):
                began = time.perf_counter()
                await _post(http, running, stub, f"run print({n} * 7)")
                samples.append(time.perf_counter() - began)
                await running.background.idle()
            report("HTTP: signed /study run (slow, graded) -> ack", samples)
        else:
            print("HTTP: no slow command in the core yet (CommandSpec.slow): not measured")


async def _post(http: aiohttp.ClientSession, running: RunningSlack, stub: SlackStub,
                text: str) -> None:  # fmt: skip
    body = urllib.parse.urlencode(command_form(stub, text, "UBENCH")).encode()
    headers = {**sign(body, secret=SECRET), "Content-Type": "application/x-www-form-urlencoded"}
    url = f"http://127.0.0.1:{running.port}/slack/events"
    async with http.post(url, data=body, headers=headers) as response:
        await response.read()
        assert response.status == 200, response.status


async def bench_socket(app: App, stub: SlackStub, floors: dict[str, list[float]]) -> None:
    async with running_slack(app, slack_settings(stub, socket=True)):
        await stub.wait_socket()
        for name, text in COMMANDS_TIMED.items():
            form = command_form(stub, text, "UBENCH")
            samples = await timed(lambda form=form: stub.envelope("slash_commands", form))
            report(f"Socket Mode: envelope /study {name} -> ack", samples, floors[name])


async def floors_of(app: App) -> dict[str, list[float]]:
    user, where = User("slack", "UBENCH", "bench"), ChannelRef("slack", "C1", "T1")
    floors = {}
    for name, text in COMMANDS_TIMED.items():
        line = "/" + text
        floors[name] = await timed(
            lambda line=line: app.core.handle_line(line, user=user, channel=where, locale=Locale.EN)
        )
    return floors


def no_proxy() -> None:
    """slack_sdk would send loopback traffic to a proxy set in the environment."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        os.environ.pop(name, None)


async def run() -> None:
    no_proxy()
    with tempfile.TemporaryDirectory() as work:
        settings = Settings.from_mapping({"STUDYBOT_DATABASE": f"{work}/bench.sqlite3",
                                          "STUDYBOT_CONTENT_DIR": str(BANK)})  # fmt: skip
        stub = SlackStub()
        await stub.start()
        stub.add_user("UBENCH")
        try:
            async with open_app(settings) as app:
                floors = await floors_of(app)
                await bench_http(app, stub, floors)
                await bench_socket(app, stub, floors)
        finally:
            await stub.close()


def main() -> None:
    tune_interpreter()  # as `studybot` does at start
    print(f"slack: {ROUNDS} sequential requests each, the real bolt app on 127.0.0.1")
    asyncio.run(run())
