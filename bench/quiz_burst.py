"""A daily quiz post answered by 200 members in 10 seconds, on loopback
(`python -m bench burst`).

The real discord.py client of the adapter talks to the local Discord of the tests over the
bundled bank. An admin posts the day's question with `/daily now`; then 200 different members
press an option button, one every 50 ms. For each press: the time from the stub sending
INTERACTION_CREATE to the bot's interaction callback (Discord's deadline is 3 s). For the
post: how many times it was edited (the tally) and the shortest gap between edits (the
adapter may edit a message about five times per five seconds; the bot's own rule is once per
5 s). Beside it, the floor: the same answers through `core.handle` without the platform.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp

from adapters.slack.modes import running_slack
from bench.discord import percentiles
from bench.slack import SECRET, no_proxy, slack_settings
from bot.app import open_app
from bot.interpreter import tune_interpreter
from bot.settings import Settings
from bot.types import ChannelRef, Invocation, Locale, User
from tests.adapters.discord.conftest import connected
from tests.adapters.discord.stub import CHANNEL_ID, GUILD_ID, DiscordStub, message_json
from tests.adapters.slack.conftest import CHANNEL as SLACK_CHANNEL
from tests.adapters.slack.conftest import interactive, post_signed, sign
from tests.adapters.slack.stub import TEAM, SlackStub

ANSWERS = 200
SPACING = 0.05  # seconds between presses: 200 in 10 s
BANK = Path(__file__).resolve().parents[1] / "content"
DEADLINE = 3.0


def slash(name: str, options: dict[str, str]) -> dict[str, Any]:
    given = [{"name": k, "type": 3, "value": v} for k, v in options.items()]
    return {"id": "9", "name": name, "type": 1, "options": given}


async def post_quiz(stub: DiscordStub) -> tuple[dict[str, Any], list[str]]:
    """Set a schedule of explained questions and post today's at once; the post and its
    quiz buttons."""
    options = {"action": "set", "time": "09:00", "timezone": "UTC", "topic": "gpu"}
    iid = await stub.interact(2, slash("schedule", options), admin=True)
    await stub.wait_for(lambda: stub.callback(iid))
    iid = await stub.interact(2, slash("daily", {"action": "now"}), admin=True)
    await stub.wait_for(lambda: stub.calls("POST", f"/channels/{CHANNEL_ID}/messages"))
    [post] = stub.calls("POST", f"/channels/{CHANNEL_ID}/messages")
    buttons = [b["custom_id"] for row in post.body["components"] for b in row["components"]]
    quiz = [b for b in buttons if b.startswith("quiz:")]
    assert quiz, "the day's question has no quick check"
    posted = next(m for m in stub.messages.values() if m.get("nonce") == post.body["nonce"])
    return {"post": post.body, "id": posted["id"]}, quiz


async def press(stub: DiscordStub, post: dict[str, Any], button: str, n: int) -> float:
    started = time.perf_counter()
    message = message_json(CHANNEL_ID, post["id"], post["post"])
    iid = await stub.interact(3, {"custom_id": button, "component_type": 2}, message=message,
                              member=(str(900_000 + n), f"member{n}"))  # fmt: skip
    await stub.wait_for(lambda: stub.callback(iid), within=30)
    return time.perf_counter() - started


async def burst(stub: DiscordStub, post: dict[str, Any], quiz: list[str]) -> list[float]:
    return await _spaced(lambda n: press(stub, post, quiz[n % len(quiz)], n))


def edit_times(stub: DiscordStub, message_id: str) -> list[float]:
    edits = stub.calls("PATCH", f"/channels/{CHANNEL_ID}/messages/{message_id}")
    return [e.at for e in edits]


async def floor(app: Any, quiz: list[str]) -> list[float]:
    """The same 200 answers through the core alone, on a second post's buttons."""
    where = ChannelRef("discord", CHANNEL_ID, GUILD_ID)
    timings = []
    for n in range(ANSWERS):
        who = User("discord", str(800_000 + n), f"floor{n}")
        post, _, choice = quiz[n % len(quiz)].split(":", 1)[1].rpartition(":")
        inv = Invocation("quiz", {"post": post, "choice": choice}, who, where, Locale.EN)
        started = time.perf_counter()
        await app.core.handle(inv)
        timings.append(time.perf_counter() - started)
    return timings


async def run() -> None:
    logging.getLogger("discord").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings.from_mapping({"STUDYBOT_DATABASE": f"{tmp}/bench.sqlite3",
                                          "STUDYBOT_CONTENT_DIR": str(BANK)})  # fmt: skip
        async with (
            open_app(settings, grading=False) as app,
            DiscordStub() as stub,
            connected(stub, app),
        ):
            await app.scheduler.start()
            post, quiz = await post_quiz(stub)
            started = time.perf_counter()
            waits = await burst(stub, post, quiz)
            took = time.perf_counter() - started
            await app.tallies.settled()
            tally = await app.quizzes.tally(*_post_of(quiz[0]))
            report(waits, took, edit_times(stub, post["id"]), tally.answered, tally.right)
            core = await floor(app, quiz)
            print(f"{ANSWERS} answers, core.handle alone: {percentiles(core)}   (floor)")
            print(f"median answer, platform vs core: {statistics.median(waits) * 1000:.2f} "
                  f"vs {statistics.median(core) * 1000:.2f} ms")  # fmt: skip


def report(waits: list[float], took: float, edits: list[float], answered: int, right: int,
           what: str = "callback", platform: str = "Discord") -> None:  # fmt: skip
    gaps = [b - a for a, b in itertools.pairwise(edits)]
    late = sum(w > DEADLINE for w in waits)
    print(f"{platform}: {ANSWERS} answers in {took:.1f} s: {what} {percentiles(waits)}   "
          f"max {max(waits) * 1000:.1f} ms   over {DEADLINE:.0f} s: {late}")  # fmt: skip
    print(f"tally: {answered} answered, {right} right; post edited {len(edits)} times, "
          f"shortest gap {min(gaps, default=0):.2f} s "
          "(the bot's rule: 1 per 5 s; Discord allows about 5 per 5 s, Slack about 1 a "
          "second)")  # fmt: skip


async def slack_burst() -> None:
    """The same burst on Slack: 200 signed block_actions to the bolt app in HTTP mode, each
    timed to its ack (Slack's deadline is 3 s); the private replies go to response_url."""
    no_proxy()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings.from_mapping({"STUDYBOT_DATABASE": f"{tmp}/bench.sqlite3",
                                          "STUDYBOT_CONTENT_DIR": str(BANK)})  # fmt: skip
        stub = SlackStub()
        await stub.start()
        try:
            async with (
                open_app(settings, grading=False) as app,
                running_slack(app, slack_settings(stub, socket=False), host="127.0.0.1") as bolt,
                aiohttp.ClientSession() as http,
            ):
                quiz = await slack_quiz(app, stub)
                started = time.perf_counter()
                waits = await _spaced(lambda n: _click(http, bolt, stub, quiz[n % len(quiz)], n))
                took = time.perf_counter() - started
                await stub.wait_until(lambda: len(stub.responses) >= ANSWERS or None)
                await app.tallies.settled()
                tally = await app.quizzes.tally(*_post_of(quiz[0]["action_id"]))
                edits = [c.at for c in stub.called("chat.update")]
                report(waits, took, edits, tally.answered, tally.right, "ack", "Slack")
        finally:
            await stub.close()


async def slack_quiz(app: Any, stub: SlackStub) -> list[dict[str, Any]]:
    admin = User("slack", "UADMIN", "admin", is_admin=True)
    where = ChannelRef("slack", SLACK_CHANNEL, TEAM)
    await app.scheduler.start()
    for line in ("/schedule set 09:00 UTC topic:gpu", "/daily now"):
        await app.core.handle_line(line, user=admin, channel=where, locale=Locale.EN)
    post = stub.called("chat.postMessage")[0].params
    buttons = [e for b in post["blocks"] if b["type"] == "actions" for e in b["elements"]]
    return [b for b in buttons if b["action_id"].startswith("quiz:")]


async def _click(http: aiohttp.ClientSession, bolt: Any, stub: SlackStub,
                 button: dict[str, Any], n: int) -> float:  # fmt: skip
    member = f"UM{n:04d}"
    stub.add_user(member)
    body = interactive({"type": "block_actions", "user": {"id": member, "name": member},
                        "team": {"id": TEAM}, "channel": {"id": SLACK_CHANNEL},
                        "trigger_id": f"t{n}", "response_url": stub.response_url(),
                        "api_app_id": "A1", "token": "legacy",
                        "container": {"type": "message"},
                        "actions": [{**button, "type": "button", "block_id": "b",
                                     "action_ts": "1"}]})  # fmt: skip
    started = time.perf_counter()
    status, _, _ = await post_signed(http, bolt, body, headers=sign(body, secret=SECRET))
    assert status == 200, status
    return time.perf_counter() - started


async def _spaced(press: Callable[[int], Awaitable[float]]) -> list[float]:
    presses = []
    for n in range(ANSWERS):
        presses.append(asyncio.create_task(press(n)))
        await asyncio.sleep(SPACING)
    return list(await asyncio.gather(*presses))


def _post_of(button: str) -> tuple[int, str]:
    post = button.split(":", 1)[1].rpartition(":")[0]
    schedule, _, slot = post.partition(":")
    return int(schedule), slot


def main() -> None:
    tune_interpreter()
    print("a quiz burst: the real discord.py client and slack-bolt app, local stubs")
    asyncio.run(run())
    asyncio.run(slack_burst())
