"""Discord's global rate limit: the real discord.py client, paced, against a stub that
enforces the limit with Discord's own 429s.

These run on the system clock (the limit is the stub's, in real seconds), and assert counts,
not durations: a paced bot is refused nothing however slow the machine (a slow machine only
spreads its requests further apart), and an unpaced one is refused and retries until every
post is through, once.
"""

from __future__ import annotations

import asyncio

from bot.app import App
from bot.clock import SystemClock
from bot.pacing import LocalBudget, Pacer
from bot.types import ChannelRef, Reply
from tests.adapters.discord.conftest import connected
from tests.adapters.discord.stub import GUILD_ID, DiscordStub
from tests.test_pacing import Counted


def _pacer(rate: float, metrics: Counted) -> Pacer:
    return Pacer(LocalBudget(rate, SystemClock()), metrics, "discord")  # type: ignore[arg-type]


async def _post(running_app: App, stub: DiscordStub, channels: int) -> None:
    adapter = running_app.platforms.get("discord")
    assert adapter is not None
    posts = [adapter.send(ChannelRef("discord", str(9000 + n), GUILD_ID), Reply(f"Q{n}"),
                          nonce=f"n{n}") for n in range(channels)]  # fmt: skip
    await asyncio.gather(*posts)


def _held(stub: DiscordStub) -> dict[str, int]:
    """Messages each channel holds."""
    found: dict[str, int] = {}
    for message in stub.messages.values():
        found[message["channel_id"]] = found.get(message["channel_id"], 0) + 1
    return found


async def test_a_paced_bot_is_refused_nothing(stub: DiscordStub, app: App) -> None:
    stub.global_limit, metrics = 10, Counted()
    # Half the limit: a turn may wait behind a busy loop for up to a second and still fit.
    async with connected(stub, app, client_options={"pacer": _pacer(5, metrics)}):
        await _post(app, stub, 12)
    assert stub.refused == [] and metrics.limited == []
    assert set(_held(stub).values()) == {1} and len(_held(stub)) == 12
    waits = [seconds for platform, seconds in metrics.waits if platform == "discord"]
    assert len(waits) >= 12 and max(waits) > 1.0  # the last of twelve waited its turn


async def test_a_global_refusal_is_retried_once_it_passes_and_holds_the_budget(
    stub: DiscordStub, app: App
) -> None:
    stub.global_limit, metrics = 3, Counted()
    pacer = _pacer(1000, metrics)  # far above the limit: refusals are bound to come
    async with connected(stub, app, client_options={"pacer": pacer}):
        await _post(app, stub, 8)
    assert len(stub.refused) > 0
    assert len(metrics.limited) == len(stub.refused)  # each 429 seen and counted
    held = _held(stub)
    assert all(held.get(str(9000 + n)) == 1 for n in range(8))  # each post through, once
    refusal = stub.refused[0]
    assert refusal.method == "POST" and refusal.path.startswith("/channels/")
