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
from pathlib import Path
from typing import Any

from bench.discord import percentiles
from bot.app import open_app
from bot.interpreter import tune_interpreter
from bot.settings import Settings
from bot.types import ChannelRef, Invocation, Locale, User
from tests.adapters.discord.conftest import connected
from tests.adapters.discord.stub import CHANNEL_ID, GUILD_ID, DiscordStub, message_json

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
    presses = []
    for n in range(ANSWERS):
        presses.append(asyncio.create_task(press(stub, post, quiz[n % len(quiz)], n)))
        await asyncio.sleep(SPACING)
    return list(await asyncio.gather(*presses))


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


def report(waits: list[float], took: float, edits: list[float], answered: int,
           right: int) -> None:  # fmt: skip
    gaps = [b - a for a, b in itertools.pairwise(edits)]
    late = sum(w > DEADLINE for w in waits)
    print(f"{ANSWERS} answers in {took:.1f} s: callback {percentiles(waits)}   "
          f"max {max(waits) * 1000:.1f} ms   over {DEADLINE:.0f} s: {late}")  # fmt: skip
    print(f"tally: {answered} answered, {right} right; post edited {len(edits)} times, "
          f"shortest gap {min(gaps, default=0):.2f} s "
          "(Discord allows about 5 per 5 s; the bot's rule is 1 per 5 s)")  # fmt: skip


def _post_of(button: str) -> tuple[int, str]:
    post = button.split(":", 1)[1].rpartition(":")[0]
    schedule, _, slot = post.partition(":")
    return int(schedule), slot


def main() -> None:
    tune_interpreter()
    print("a quiz burst on Discord (real discord.py client, local Discord stub)")
    asyncio.run(run())
