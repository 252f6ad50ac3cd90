"""Benchmarks of the Discord adapter on loopback (`python -m bench discord`).

The real discord.py client of the adapter, connected to the local Discord of the tests
(`tests/adapters/discord/stub.py`), over the bundled bank. Each figure beside its floor:

- interaction round trip, `/question <id>` and `/search <words>`: from the stub sending
  INTERACTION_CREATE on the gateway to the bot's callback arriving over REST, p50/p95
  vs  calling `core.handle` directly with the same invocation (what the core alone costs)
- event-loop lag (p50/p95/max of a 5 ms ticker's lateness) while 32 gradings are in flight
  (each a real rotate-matrix submission through the sandbox, by 32 different people, deferred
  by the adapter as slow commands are), vs  the same ticker on an idle bot

Targets: round trip p95 under 20 ms for lookups; loop lag under 20 ms.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from adapters.discord.run import make_client, run_client, use_endpoints
from bot.app import open_app
from bot.core import Studybot
from bot.grading.service import Grading
from bot.interpreter import tune_interpreter
from bot.settings import DiscordSettings, Secret, Settings
from bot.types import Invocation, Locale, Reply, User
from tests.adapters.discord.stub import TOKEN, DiscordStub

ROUNDS = 300
SLOW = 32
SLOW_SECONDS = 1.0  # how long the idle ticker runs
BANK = Path(__file__).resolve().parents[1] / "content"
LOOKUPS = {
    "question": {"id": "python-gil"},
    "search": {"query": "显存"},
}


class GradingCore(Studybot):
    """The real core, where `/topics` also grades a real submission, each time as a different
    person (the stub's interactions all come from one member, and grading allows one job per
    person): 32 of them in flight are 32 real gradings."""

    def __init__(self, core: Studybot, grading: Grading) -> None:
        self.__dict__.update(core.__dict__)
        self._grading, self._people = grading, itertools.count()
        self._problem = grading.problem("rotate-matrix")
        explanation = (BANK / "problems" / "rotate-matrix" / "explanation.md").read_text()
        found = re.search(r"^```python\n(.*?)^```", explanation, re.M | re.S)
        assert found is not None and self._problem is not None
        self._code = found.group(1)

    async def handle(self, inv: Invocation) -> Reply:
        if inv.command == "topics":
            assert self._problem is not None
            person = User("bench", str(next(self._people)), "bench")
            grade = await self._grading.submit(person, Locale.EN, self._problem, self._code)
            assert grade.verdict.value == "accepted", grade
        return await super().handle(inv)


def percentiles(samples: list[float]) -> str:
    cuts = statistics.quantiles(samples, n=100)
    return f"p50 {cuts[49] * 1000:6.2f} ms   p95 {cuts[94] * 1000:6.2f} ms"


@contextlib.asynccontextmanager
async def running_bot(core: Studybot, stub: DiscordStub) -> AsyncIterator[None]:
    settings = DiscordSettings(Secret(TOKEN), api_base_url=stub.api, gateway_url=stub.ws_url)
    use_endpoints(settings)
    client = make_client(core, settings, guild_ready_timeout=0.05)
    task = asyncio.create_task(run_client(client, settings), name="discord")
    await asyncio.wait_for(client.wait_until_ready(), 10)
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def slash(name: str, options: dict[str, str]) -> dict[str, Any]:
    given = [{"name": k, "type": 3, "value": v} for k, v in options.items()]
    return {"id": "9", "name": name, "type": 1, "options": given}


async def round_trip(stub: DiscordStub, name: str, options: dict[str, str]) -> float:
    started = time.perf_counter()
    iid = await stub.interact(2, slash(name, options))
    await stub.wait_for(lambda: stub.callback(iid))
    return time.perf_counter() - started


async def timed(call: Callable[[], Awaitable[object]]) -> float:
    started = time.perf_counter()
    await call()
    return time.perf_counter() - started


async def ticker_lag(stop: asyncio.Event, period: float = 0.005) -> list[float]:
    lags = []
    while not stop.is_set():
        due = time.perf_counter() + period
        await asyncio.sleep(period)
        lags.append(max(0.0, time.perf_counter() - due))
    return lags


async def loop_lag(stub: DiscordStub, busy: bool) -> list[float]:
    stop = asyncio.Event()
    ticker = asyncio.create_task(ticker_lag(stop))
    if busy:
        ids = [await stub.interact(2, slash("topics", {})) for _ in range(SLOW)]
        await stub.wait_for(lambda: all(stub.replies(i) for i in ids), within=30)
    else:
        await asyncio.sleep(SLOW_SECONDS + 0.5)
    stop.set()
    return await ticker


def lag_line(label: str, lags: list[float]) -> str:
    cuts = statistics.quantiles(lags, n=100)
    return (f"{label}: p50 {cuts[49] * 1000:5.2f} ms   p95 {cuts[94] * 1000:5.2f} ms   "
            f"max {max(lags) * 1000:5.2f} ms   ({len(lags)} ticks)")  # fmt: skip


async def run() -> None:
    logging.getLogger("discord").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings.from_mapping({"STUDYBOT_DATABASE": f"{tmp}/bench.sqlite3",
                                          "STUDYBOT_CONTENT_DIR": str(BANK)})  # fmt: skip
        async with open_app(settings) as app, DiscordStub() as stub:
            await app.grading.started()
            core = GradingCore(app.core, app.grading)
            async with running_bot(core, stub):
                for name, options in LOOKUPS.items():
                    inv = Invocation(name, options)
                    for _ in range(20):  # warm caches on both paths
                        await round_trip(stub, name, options)
                        await core.handle(inv)
                    wire = [await round_trip(stub, name, options) for _ in range(ROUNDS)]
                    floor = [await timed(lambda i=inv: core.handle(i)) for _ in range(ROUNDS)]
                    print(f"/{name:<8} round trip   {percentiles(wire)}   (n={ROUNDS})")
                    print(f"/{name:<8} core.handle  {percentiles(floor)}   (floor)")
                print(lag_line("loop lag, idle bot         ", await loop_lag(stub, busy=False)))
                print(lag_line(f"loop lag, {SLOW} gradings     ", await loop_lag(stub, busy=True)))


def main() -> None:
    tune_interpreter()  # as `studybot` does at start
    print("discord adapter on loopback (real discord.py client, local Discord stub)")
    asyncio.run(run())
