"""Soak (`python -m bench soak`): one `studybot run` under steady bursts, watched from outside.

"Runs for months" means nothing the bot holds grows with the traffic it has served. Under
bursts through the local Discord stub its memory once grew about 1.9 MiB a minute for good
(discord.py's view store kept one View per reply with buttons). This suite runs the real entry
point as a subprocess (tests/e2e/process.py), its database in a temporary directory, with
Discord and Slack (Socket Mode) both configured against the local stubs on 127.0.0.1, and
every `BURST_EVERY` seconds sends one burst of, per platform:

- `/question <id>`, then a click on its "Show answer" button (Discord: a component
  interaction on the posted message; Slack: a block action, answered on its response_url)
- `/search <words>`, and on Discord an autocomplete of `/answer`
- `GRADINGS` snippets through `/run` (Discord: the form's submission; Slack: `/study run`),
  each graded by a fresh sandbox worker, whose output is checked

Requests come from a fixed pool of `PEOPLE` people per platform, in turn, so the grading
allowance (one job at a time and six a minute per person) is never the limit. Every reply is
awaited (at most `WAIT` seconds), so a burst never overlaps the next and the load stays
bounded; what fails is counted and printed. The stubs' own records are cleared after each
burst so the driver stays as light as the bot.

Every `SAMPLE_EVERY` seconds the bot process is sampled through /proc (bench/probe.py): RSS,
threads, open descriptors, processes in its tree, database and WAL sizes. The report is a table per
minute and each series' least-squares slope over the samples after the first minute (warm-up:
imports, caches, the sandbox's warm workers, SQLite's page cache), beside its target.

`SOAK_MINUTES` (default 5) sets the length; the run stops by itself, then SIGTERMs the bot.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import os
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.probe import Sample, levels, sample
from bench.slack import no_proxy
from bench.soak_report import report
from tests.adapters.discord.stub import (
    APP_ID,
    CHANNEL_ID,
    GUILD_ID,
    TIMESTAMP,
    TOKEN,
    DiscordStub,
    message_json,
    user,
)
from tests.adapters.slack.conftest import APP_TOKEN, BOT_TOKEN, CHANNEL, block_texts, command_form
from tests.adapters.slack.stub import TEAM, SlackStub
from tests.e2e.process import Run, studybot_run

MINUTES = float(os.environ.get("SOAK_MINUTES", "5"))
BURST_EVERY = 6.0  # seconds from one burst's start to the next
SAMPLE_EVERY = 10.0  # seconds between samples of the bot process
GRADINGS = 2  # /run snippets per platform per burst
PEOPLE = 5  # people per platform, in turn: 2 x 10 bursts a minute / 5 = 4 gradings each
WAIT = 15.0  # seconds one reply may take before it counts as failed
QUESTIONS = ("python-gil", "gpu-vs-cpu", "allreduce-communication-cost", "python-ipc")
SEARCHES = ("显存", "GIL", "allreduce", "进程 通信")
COMMAND, COMPONENT, AUTOCOMPLETE, MODAL = 2, 3, 4, 5
Json = dict[str, Any]


class Tally:
    """What the traffic did: each kind of request, answered or failed, and when."""

    def __init__(self, began: float) -> None:
        self.began = began
        self.ok: collections.Counter[str] = collections.Counter()
        self.failed: collections.Counter[str] = collections.Counter()
        self.done_at: list[float] = []  # seconds since the start, one per answered request
        self.reasons: list[str] = []

    async def track(self, kind: str, work: Awaitable[object]) -> None:
        try:
            async with asyncio.timeout(WAIT):
                await work
        except (TimeoutError, AssertionError, KeyError, IndexError, TypeError) as exc:
            self.failed[kind] += 1
            if len(self.reasons) < 10:
                self.reasons.append(f"{kind}: {type(exc).__name__} {exc}"[:200])
        else:
            self.ok[kind] += 1
            self.done_at.append(time.monotonic() - self.began)


# --- Discord ----------------------------------------------------------------------------


def slash(name: str, **options: str) -> Json:
    given = [{"name": k, "type": 3, "value": v} for k, v in options.items()]
    return {"id": "9", "name": name, "type": 1, "options": given}


async def interact(stub: DiscordStub, kind: int, data: Json, person: int,
                   message: Json | None = None) -> str:  # fmt: skip
    """INTERACTION_CREATE from member `person` of the pool (DiscordStub.interact speaks for
    one member only); returns the interaction id."""
    iid = stub.next_id()
    member = {"user": user(str(7100 + person), f"member{person}"), "roles": [],
              "joined_at": TIMESTAMP, "permissions": str(1 << 10), "deaf": False, "mute": False,
              "flags": 0}  # fmt: skip
    payload = {"id": iid, "application_id": APP_ID, "type": kind, "token": f"tok-{iid}",
               "version": 1, "attachment_size_limit": 8 << 20, "data": data,
               "guild_id": GUILD_ID, "channel_id": CHANNEL_ID, "member": member,
               "channel": {"id": CHANNEL_ID, "type": 0, "guild_id": GUILD_ID, "name": "study"},
               "locale": "zh-CN" if person % 2 else "en-US", "guild_locale": "en-US",
               "app_permissions": "0", "entitlements": [], "authorizing_integration_owners": {},
               "context": 0}  # fmt: skip
    if message is not None:
        payload["message"] = message
    await stub.dispatch("INTERACTION_CREATE", payload)
    return iid


async def first_reply(stub: DiscordStub, iid: str) -> Json:
    return (await stub.wait_for(lambda: stub.replies(iid), within=WAIT))[0]  # type: ignore[no-any-return]


async def discord_question(stub: DiscordStub, person: int, qid: str) -> None:
    asked = await interact(stub, COMMAND, slash("question", id=qid), person)
    posted = await first_reply(stub, asked)
    [button] = posted["components"][0]["components"]
    shown = message_json(CHANNEL_ID, stub.next_id(), posted)
    click = {"custom_id": button["custom_id"], "component_type": 2}
    answer = await first_reply(stub, await interact(stub, COMPONENT, click, person, shown))
    assert answer["embeds"], answer


async def discord_search(stub: DiscordStub, person: int, words: str) -> None:
    searched = await interact(stub, COMMAND, slash("search", query=words), person)
    found = await first_reply(stub, searched)
    assert found["embeds"], found


async def discord_autocomplete(stub: DiscordStub, person: int, words: str) -> None:
    data = {"id": "9", "name": "answer", "type": 1,
            "options": [{"name": "id", "type": 3, "value": words, "focused": True}]}  # fmt: skip
    iid = await interact(stub, AUTOCOMPLETE, data, person)
    callback = await stub.wait_for(lambda: stub.callback(iid), within=WAIT)
    assert callback["type"] == 8, callback


async def discord_run(stub: DiscordStub, person: int, n: int) -> None:
    code = f"```python\nprint({n} * 7)\n```"
    form = {"custom_id": "code:run:", "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "code", "value": code}]}]}  # fmt: skip
    iid = await interact(stub, MODAL, form, person)
    path = f"/webhooks/{APP_ID}/tok-{iid}/"
    [edit] = await stub.wait_for(lambda: stub.calls("PATCH", path), within=WAIT)
    assert str(n * 7) in edit.body["embeds"][0]["description"], edit.body


# --- Slack ------------------------------------------------------------------------------


def slack_person(person: int) -> str:
    return f"USOAK{person}"


async def slack_response(stub: SlackStub, response_url: str) -> Json:
    rid = response_url.rsplit("/", 1)[1]
    return await stub.wait_until(lambda: next((b for i, b in stub.responses if i == rid), None))


async def slack_question(stub: SlackStub, person: int, qid: str) -> None:
    who = slack_person(person)
    ack = await stub.envelope("slash_commands", command_form(stub, f"question {qid}", who))
    blocks = ack["payload"]["blocks"]
    [button] = [e for b in blocks if b["type"] == "actions" for e in b["elements"]]
    response_url = stub.response_url()
    click = {"type": "block_actions", "user": {"id": who, "name": who.lower()},
             "team": {"id": TEAM}, "channel": {"id": CHANNEL}, "trigger_id": "t-soak",
             "response_url": response_url, "api_app_id": "A1", "token": "legacy",
             "container": {"type": "message"}, "actions": [
                 {**button, "type": "button", "block_id": "b", "action_ts": "1"}]}  # fmt: skip
    await stub.envelope("interactive", click)
    answer = await slack_response(stub, response_url)
    assert answer["blocks"], answer


async def slack_search(stub: SlackStub, person: int, words: str) -> None:
    form = command_form(stub, f"search {words}", slack_person(person))
    ack = await stub.envelope("slash_commands", form)
    assert ack["payload"]["blocks"], ack


async def slack_run(stub: SlackStub, person: int, n: int) -> None:
    form = command_form(stub, f"run print({n} * 7)", slack_person(person))
    await stub.envelope("slash_commands", form)
    output = await slack_response(stub, form["response_url"])
    assert str(n * 7) in block_texts(output["blocks"]), output


# --- the soak ---------------------------------------------------------------------------


def burst(discord: DiscordStub, slack: SlackStub, tally: Tally, number: int,
          turns: Callable[[], int]) -> list[Awaitable[None]]:  # fmt: skip
    """One burst's requests, to run at once."""
    qid, words = QUESTIONS[number % len(QUESTIONS)], SEARCHES[number % len(SEARCHES)]
    work: list[tuple[str, Awaitable[None]]] = [
        ("discord /question + click", discord_question(discord, turns(), qid)),
        ("discord /search", discord_search(discord, turns(), words)),
        ("discord autocomplete", discord_autocomplete(discord, turns(), words)),
        ("slack /study question + click", slack_question(slack, turns(), qid)),
        ("slack /study search", slack_search(slack, turns(), words)),
    ]
    for g in range(GRADINGS):
        n = number * GRADINGS + g
        work += [("discord /run (graded)", discord_run(discord, turns(), n)),
                 ("slack /study run (graded)", slack_run(slack, turns(), n))]  # fmt: skip
    return [tally.track(kind, job) for kind, job in work]


def forget(discord: DiscordStub, slack: SlackStub) -> None:
    """Clear what the stubs recorded: nothing is in flight between bursts."""
    discord.requests.clear()
    discord.messages.clear()
    slack.calls.clear()
    slack.responses.clear()


async def traffic(discord: DiscordStub, slack: SlackStub, tally: Tally, until: float) -> None:
    people = itertools.cycle(range(PEOPLE))
    for number in itertools.count():
        due = tally.began + number * BURST_EVERY
        if due >= until:
            return
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        await asyncio.gather(*burst(discord, slack, tally, number, lambda: next(people)))
        forget(discord, slack)


async def sampling(pid: int, database: Path, began: float, until: float,
                   into: list[Sample]) -> None:  # fmt: skip
    for number in itertools.count():
        due = began + number * SAMPLE_EVERY
        if due > until:
            return
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        into.append(await asyncio.to_thread(sample, pid, database, began))


async def ready(run: Run, slack: SlackStub) -> None:
    await run.wait_log("platform discord attached")
    await run.wait_log("platform slack attached")
    await slack.wait_socket()


async def soak(work: Path) -> None:
    database = work / "soak.sqlite3"
    async with DiscordStub() as discord:
        slack = SlackStub()
        await slack.start()
        for person in range(PEOPLE):
            slack.add_user(slack_person(person), locale="zh-CN" if person % 2 else "en-US")
        env = {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE_URL": discord.api,
               "DISCORD_GATEWAY_URL": discord.ws_url, "SLACK_BOT_TOKEN": BOT_TOKEN,
               "SLACK_APP_TOKEN": APP_TOKEN, "SLACK_API_BASE_URL": slack.api_url}  # fmt: skip
        try:
            async with studybot_run(database, "", **env) as run:
                await ready(run, slack)
                began = time.monotonic()
                until = began + MINUTES * 60
                pid, tally, samples = run.process.pid, Tally(began), list[Sample]()
                await asyncio.gather(traffic(discord, slack, tally, until),
                                     sampling(pid, database, began, until, samples))  # fmt: skip
                depths = levels(pid)
            report(samples, tally, run, depths)
        finally:
            await slack.close()


def main() -> None:
    no_proxy()
    print(f"soak: one `studybot run` (Discord + Slack on local stubs, 127.0.0.1), {MINUTES:g} "
          f"min, a burst every {BURST_EVERY:g} s, a sample every {SAMPLE_EVERY:g} s")  # fmt: skip
    with (
        tempfile.TemporaryDirectory(prefix="studybot-soak-") as work,
        contextlib.suppress(KeyboardInterrupt),
    ):
        asyncio.run(soak(Path(work)))
