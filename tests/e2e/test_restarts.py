"""A daily question survives restarts of `studybot run`, as a process, on every platform.

The same three runs for the console, Discord (its local stub) and Slack (its local stub), on
one database, with the test clock (tests/e2e/process.py):

1. 09:00: an admin sets the daily question for 09:02, the answer a minute after; stop.
2. 09:02:20, the slot missed while the bot was down: the question is posted (late, within
   the grace period) as soon as the platform connects; stop (SIGTERM) in that same minute.
3. 09:02:40, restarted in the middle of the slot: the question is not posted again, and the
   answer follows at 09:03 in the thread of the question posted by the run before.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.adapters.discord.stub import CHANNEL_ID, TOKEN, DiscordStub, Request
from tests.adapters.discord.test_interactions import COMMAND, answered, schedule_set
from tests.adapters.slack.conftest import ADMIN, APP_TOKEN, BOT_TOKEN, CHANNEL, command_form
from tests.adapters.slack.stub import SlackStub
from tests.e2e.process import Run, studybot_run

SAVING = "2026-01-05T09:00:00+00:00"  # a Monday; the clock runs at wall speed
# A clock that barely moves: the 09:02 question is posted late at start, and its 09:03 answer
# is four days of wall time away, so this run cannot post it before it is stopped, however
# slowly it starts (at ten times as fast, a start longer than 4 s would have posted it).
LATE = "2026-01-05T09:02:20+00:00*0.0001"
RESTARTED = "2026-01-05T09:02:40+00:00*10"


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


async def quiet(run: Run, seconds: float = 1.0) -> None:
    """Let a run go on for `seconds` (ten times that on its clock) to see nothing more.
    Nothing is due for hours of its clock after the answer, so a slow machine cannot make
    anything legitimate arrive here; this only gives a wrong second post time to show."""
    await asyncio.sleep(seconds)
    assert run.process.returncode is None


async def test_console(database: Path) -> None:
    async with studybot_run(database, SAVING) as run:
        run.type("/schedule set 09:02 UTC answer:+1m")
        await run.wait_out("Saved. The daily question is on.")
    async with studybot_run(database, LATE) as run:
        await run.wait_out("[1] A  → /quiz post:")  # the daily post, with its quiz
        asked = next(line for line in run.out if line.startswith("┌"))
    async with studybot_run(database, RESTARTED) as run:
        await run.wait_out("↳ in thread of #1")
        await quiet(run)
        # A long answer comes in parts ("(1/3)"): one card whatever its parts.
        cards = {re.sub(r" \(\d+/\d+\)$", "", line.rstrip()) for line in run.out
                 if line.startswith("┌")}  # fmt: skip
    assert len(cards) == 1 and asked.rstrip() not in cards  # the answer, no second question
    assert next(iter(cards)).startswith("┌ Answer: ")


async def test_discord(database: Path, discord_stub: DiscordStub) -> None:
    stub = discord_stub
    env = {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE_URL": stub.api,
           "DISCORD_GATEWAY_URL": stub.ws_url}  # fmt: skip
    questions = f"/channels/{CHANNEL_ID}/messages"
    async with studybot_run(database, SAVING, **env) as run:
        await run.wait_log("platform discord attached")
        saved = await stub.interact(COMMAND, schedule_set("09:02", answer="+1m"), admin=True)
        assert "Saved." in str(await answered(stub, saved))
    async with studybot_run(database, LATE, **env):
        [question] = await stub.wait_for(lambda: posted(stub, questions))
    asked = next(m for m in stub.messages.values() if m.get("nonce") == question.body["nonce"])
    async with studybot_run(database, RESTARTED, **env) as run:
        [answer] = await stub.wait_for(lambda: posted(stub, f"/channels/{asked['id']}/messages"))
        await quiet(run)
    assert len(posted(stub, questions)) == 1
    assert answer.body["embeds"][0]["title"].startswith("Answer: ")
    assert stub.gateway.connections == 3


def posted(stub: DiscordStub, path: str) -> list[Request]:
    return [call for call in stub.calls("POST", path) if call.path == path]


@pytest.fixture
async def slack_stub() -> AsyncIterator[SlackStub]:
    stub = SlackStub()
    await stub.start()
    stub.add_user(ADMIN, admin=True)
    yield stub
    await stub.close()


async def test_slack(database: Path, slack_stub: SlackStub) -> None:
    stub = slack_stub
    env = {"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_APP_TOKEN": APP_TOKEN,
           "SLACK_API_BASE_URL": stub.api_url}  # fmt: skip
    async with studybot_run(database, SAVING, **env) as run:
        await run.wait_log("platform slack attached")
        form = command_form(stub, "schedule set 09:02 UTC answer:+1m", user=ADMIN)
        ack = await stub.envelope("slash_commands", form)
        assert "Saved." in str(ack)
    async with studybot_run(database, LATE, **env) as run:
        await run.wait_log("platform slack attached")
        question = await stub.wait_until(lambda: next(iter(posts(stub)), None))
    async with studybot_run(database, RESTARTED, **env) as run:
        await run.wait_log("platform slack attached")
        answer = await stub.wait_until(lambda: posts(stub)[1] if len(posts(stub)) > 1 else None)
        await quiet(run)
    assert len(posts(stub)) == 2 and "thread_ts" not in question
    assert answer["channel"] == CHANNEL and answer["thread_ts"] == question_ts(stub)


def posts(stub: SlackStub) -> list[dict[str, object]]:
    return [call.params for call in stub.called("chat.postMessage")]


def question_ts(stub: SlackStub) -> str:
    return next(ts for (channel, ts), m in stub.messages.items() if "thread_ts" not in m)
