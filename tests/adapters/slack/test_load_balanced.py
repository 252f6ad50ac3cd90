"""Slack in HTTP mode behind a load balancer: a person's consecutive requests may reach
different bot processes. Two bots in HTTP mode, as `studybot run` builds them on one database,
each take one step of a flow: nothing a step needs may live in the memory of the process that
took the step before.

What carries a flow from one request to the next is Slack's own payload (a button's
action_id and value, a modal's private_metadata, a response_url) or the database; the People
cache only saves users.info calls, and each process fills its own.
"""

from __future__ import annotations

import random
import urllib.parse
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import aiohttp
import pytest

from adapters.slack.modes import RunningSlack, running_slack
from adapters.slack.people import PLATFORM
from bot.app import App, open_app
from bot.settings import Settings
from bot.store.activity import ActKind
from bot.types import ChannelRef, User
from tests.adapters.slack.conftest import (
    ADMIN,
    CHANNEL,
    MEMBER,
    block_texts,
    command_form,
    interactive,
    post_signed,
    settings,
)
from tests.adapters.slack.stub import TEAM, SlackStub
from tests.adapters.slack.test_grading import SOLUTION
from tests.adapters.slack.test_http import study
from tests.adapters.slack.test_modals import submission
from tests.adapters.slack.test_review import buttons, press
from tests.fakes import REPO, FakeClock


@pytest.fixture
async def second_app(bot_app: App, tmp_path: Path, clock: FakeClock) -> AsyncIterator[App]:
    """Another bot process's app on the first one's database (the test bank's)."""
    same = Settings.from_mapping({"STUDYBOT_DATABASE": str(tmp_path / "data" / "test.sqlite3"),
                                  "STUDYBOT_CONTENT_DIR": str(tmp_path / "content")})  # fmt: skip
    async with open_app(same, clock=clock, rng=random.Random(8), grading=False) as opened:
        yield opened


@pytest.fixture
async def balanced(
    stub: SlackStub, bot_app: App, second_app: App
) -> AsyncIterator[tuple[RunningSlack, RunningSlack]]:
    async with (
        running_slack(bot_app, settings(stub), host="127.0.0.1") as first,
        running_slack(second_app, settings(stub), host="127.0.0.1") as second,
    ):
        assert first.port != second.port
        yield first, second


async def test_a_rating_button_works_on_another_process_than_the_one_that_showed_it(
    http: aiohttp.ClientSession,
    balanced: tuple[RunningSlack, RunningSlack],
    stub: SlackStub,
    clock: FakeClock,
) -> None:
    first, second = balanced
    shown = await study(http, first, stub, "answer python-gil")
    rates = [b for b in buttons(shown) if b["action_id"].startswith("rate:")]
    good = rates[2]
    assert "Rated Good: next review in 2 days" in await press(http, second, stub, good, MEMBER, 1)
    assert "Already rated" in await press(http, first, stub, good, MEMBER, 2)
    assert "someone else's review" in await press(http, second, stub, rates[0], ADMIN, 3)
    clock.advance(timedelta(days=2))
    dealt = await study(http, first, stub, "review")
    assert "Review: What is the GIL?" in block_texts(dealt["blocks"])


@pytest.fixture
async def graded_pair(
    stub: SlackStub, graded_app: App, tmp_path: Path, clock: FakeClock
) -> AsyncIterator[tuple[RunningSlack, RunningSlack]]:
    """Two graded bots on one database (each with its own sandbox), both in HTTP mode."""
    same = Settings.from_mapping({"STUDYBOT_DATABASE": str(tmp_path / "graded.sqlite3"),
                                  "STUDYBOT_CONTENT_DIR": str(REPO / "content")})  # fmt: skip
    async with (
        open_app(same, clock=clock) as other,
        running_slack(graded_app, settings(stub), host="127.0.0.1") as first,
        running_slack(other, settings(stub), host="127.0.0.1") as second,
    ):
        yield first, second


async def test_a_modal_opened_by_one_process_is_graded_by_another(
    http: aiohttp.ClientSession,
    graded_pair: tuple[RunningSlack, RunningSlack],
    stub: SlackStub,
) -> None:
    first, second = graded_pair
    form = command_form(stub, "submit fast-power")
    await post_signed(http, first, urllib.parse.urlencode(form).encode())
    view = (await stub.wait_call("views.open")).params["view"]
    status, _, body = await post_signed(http, second, interactive(submission(view, SOLUTION)))
    assert status == 200 and body == ""
    verdict = await stub.wait_response()
    assert verdict["blocks"][0]["text"]["text"].startswith("✅ Accepted")
    assert form["response_url"].rsplit("/", 1)[1] == stub.responses[0][0]  # the asker's
    mine = await study(http, first, stub, "me")  # the first process reads what the second wrote
    said = block_texts(mine["blocks"])
    assert "`fast-power`" in said and "20 in all" in said


async def _scored(app: App, clock: FakeClock) -> None:
    """MEMBER answered a quick check right in CHANNEL: 10 points on the server's board."""
    member = User(PLATFORM, MEMBER, "member")
    await app.ledger.record(ActKind.QUIZ, member, ChannelRef(PLATFORM, CHANNEL, TEAM),
                            "python-gil", correct=True, points=10, at=clock.now(),
                            dedupe="quiz:1")  # fmt: skip


async def _forget_me(http: aiohttp.ClientSession, stub: SlackStub, *, asked_on: RunningSlack,
                     confirmed_on: RunningSlack) -> str:  # fmt: skip
    """MEMBER asks `/study forget me` of one process and presses "yes" on another: the reply."""
    asked = await study(http, asked_on, stub, "forget me")
    yes = next(b for b in buttons(asked) if b["action_id"].startswith("forget:") and
               b.get("value", b["action_id"]).endswith("yes"))  # fmt: skip
    return await press(http, confirmed_on, stub, yes, MEMBER, 1)


async def test_forgetting_is_confirmed_on_another_process_than_the_one_that_asked(
    http: aiohttp.ClientSession,
    balanced: tuple[RunningSlack, RunningSlack],
    stub: SlackStub,
    bot_app: App,
    clock: FakeClock,
) -> None:
    first, second = balanced
    await _scored(bot_app, clock)
    said = await _forget_me(http, stub, asked_on=first, confirmed_on=second)
    assert "Deleted:" in said, said
    assert "holds nothing on you" in block_texts(
        (await study(http, first, stub, "forget me"))["blocks"]
    )


async def test_a_board_kept_by_another_process_drops_a_forgotten_member(
    http: aiohttp.ClientSession,
    balanced: tuple[RunningSlack, RunningSlack],
    stub: SlackStub,
    bot_app: App,
    clock: FakeClock,
) -> None:
    first, second = balanced
    await _scored(bot_app, clock)
    board = block_texts((await study(http, first, stub, "leaderboard"))["blocks"])
    assert "member  10" in board  # the first process keeps this board warm now
    await _forget_me(http, stub, asked_on=second, confirmed_on=second)
    board = block_texts((await study(http, first, stub, "leaderboard"))["blocks"])
    assert "member  10" not in board, board
