"""The metrics server of a running bot, as Prometheus and Docker see it: the bot is started
by `serve` (the composition root `studybot run` uses) with a metrics port and a platform of
the test's own, which attaches when told; /readyz, /healthz and /metrics are read over HTTP
and /metrics parsed with prometheus_client's own parser."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app import App
from bot.cli.serve import serve
from bot.commands.spec import BY_NAME
from bot.settings import Settings
from bot.types import ChannelRef, Invocation, Reply, User
from tests.fakes import FakeAdapter

PLATFORM = "test"
MEMBER = User(PLATFORM, "u1", "Ann")
CHANNEL = ChannelRef(PLATFORM, "c1", "w1")
PATIENCE = 60.0  # seconds the sandbox may take to start on a loaded machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Member:
    """A platform the test drives: it attaches when `attach` is set, then runs each
    invocation put in `asks` and puts the reply in `replies`."""

    attach: asyncio.Event = field(default_factory=asyncio.Event)
    asks: asyncio.Queue[Invocation] = field(default_factory=asyncio.Queue)
    replies: asyncio.Queue[Reply] = field(default_factory=asyncio.Queue)
    app: App | None = None

    async def __call__(self, app: App) -> None:
        self.app = app
        await self.attach.wait()
        await app.platforms.attach(PLATFORM, FakeAdapter())
        while True:
            await self.replies.put(await app.core.handle(await self.asks.get()))

    async def ask(self, command: str, **options: str) -> Reply:
        await self.asks.put(Invocation(command, options, user=MEMBER, channel=CHANNEL))
        return await asyncio.wait_for(self.replies.get(), PATIENCE)


@dataclass
class Running:
    base: str
    member: Member
    http: aiohttp.ClientSession

    async def get(self, path: str) -> tuple[int, str]:
        async with self.http.get(self.base + path) as response:
            return response.status, await response.text()

    async def until(self, path: str, ok: Callable[[int, str], bool]) -> tuple[int, str]:
        """Read `path` until `ok` (the server is starting, the sandbox warming): the last
        answer, whatever it is, once `PATIENCE` has passed."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PATIENCE
        while True:
            try:
                answer = await self.get(path)
            except aiohttp.ClientConnectionError:
                answer = (0, "")
            if ok(*answer) or loop.time() > deadline:
                return answer
            await asyncio.sleep(0.05)

    async def samples(self) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
        status, text = await self.get("/metrics")
        assert status == 200
        return {
            (s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text)
            for s in family.samples
        }


@pytest.fixture
async def running(tmp_path: Path, content_dir: Path) -> AsyncIterator[Running]:
    port = free_port()
    settings = Settings.from_mapping({
        "STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3"),
        "STUDYBOT_CONTENT_DIR": str(content_dir),
        "STUDYBOT_CACHE_DIR": str(tmp_path / "cache"),
        "STUDYBOT_METRICS_PORT": str(port),
    })  # fmt: skip
    member = Member()
    task = asyncio.create_task(serve(settings, [member]))
    async with aiohttp.ClientSession() as http:
        up = Running(f"http://127.0.0.1:{port}", member, http)
        try:
            await up.until("/healthz", lambda status, _: status == 200)
            yield up
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


def value(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str,
          **labels: str) -> float:  # fmt: skip
    return samples.get((name, frozenset(labels.items())), 0.0)


Sampled = Callable[[], Awaitable[dict[tuple[str, frozenset[tuple[str, str]]], float]]]


async def test_readyz_waits_for_the_platform_then_the_metrics_move(running: Running) -> None:
    assert await running.get("/healthz") == (200, "ok\n")
    status, reason = await running.until("/readyz", lambda _, text: "platforms" in text)
    assert (status, reason) == (503, "not ready: platforms connected: 0 of 1\n")

    running.member.attach.set()
    assert await running.until("/readyz", lambda status, _: status == 200) == (200, "ready\n")
    before = await running.samples()

    await running.member.ask("question", id="python-gil")
    await running.member.ask("question", id="no-such-question-at-all")
    await running.member.ask("run", code="print(6 * 7)")
    await running.member.ask("weird-💥-command")
    after = await running.samples()

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("studybot_interactions_total", command="question", outcome="ok") == 1
    assert moved("studybot_interactions_total", command="question", outcome="user_error") == 1
    assert moved("studybot_interactions_total", command="run", outcome="ok") == 1
    assert moved("studybot_interactions_total", command="unknown", outcome="user_error") == 1
    assert moved("studybot_reply_seconds_count", command="question") == 2
    assert moved("studybot_reply_seconds_sum", command="run") > 0
    assert moved("studybot_verdicts_total", verdict="accepted") == 1
    assert value(after, "studybot_isolation_layer_active", layer="seccomp") in (0.0, 1.0)
    assert moved("studybot_platform_reconnects_total", platform=PLATFORM) == 0


async def test_label_sets_are_bounded(running: Running) -> None:
    running.member.attach.set()
    await running.until("/readyz", lambda status, _: status == 200)
    for weird in ("drop table", "../../etc", "a" * 300, "\u202equestion"):
        await running.member.ask(weird)
    commands = {
        dict(labels)["command"]
        for (name, labels) in await running.samples()
        if name == "studybot_interactions_total"
    }
    assert commands == {*BY_NAME, "unknown"}
    outcomes = {
        dict(labels)["outcome"]
        for (name, labels) in await running.samples()
        if name.startswith("studybot_daily_posts")
    }
    assert outcomes == {"sent", "late", "missed"}


async def test_a_platform_attached_again_counts_as_a_reconnect(running: Running) -> None:
    running.member.attach.set()
    await running.until("/readyz", lambda status, _: status == 200)
    app = running.member.app
    assert app is not None
    app.platforms.detach(PLATFORM)
    status, reason = await running.get("/readyz")
    assert (status, reason) == (503, "not ready: platforms connected: 0 of 1\n")
    await app.platforms.attach(PLATFORM, FakeAdapter())
    samples = await running.samples()
    assert value(samples, "studybot_platform_reconnects_total", platform=PLATFORM) == 1
    assert (await running.get("/readyz"))[0] == 200
