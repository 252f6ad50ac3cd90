"""Code comes in through a modal: `/study submit <problem>`, `/study run`, and the Submit button
open it; its submission goes to the core and the answer follows through the response_url."""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

import aiohttp

from adapters.slack.modes import RunningSlack
from adapters.slack.render import CODE_BLOCK, MODAL_CALLBACK, PROBLEM_BLOCK
from tests.adapters.slack.conftest import CHANNEL, MEMBER, command_form, interactive, post_signed
from tests.adapters.slack.stub import TEAM, SlackStub


async def open_modal(
    http: aiohttp.ClientSession, running: RunningSlack, stub: SlackStub, text: str
) -> tuple[dict[str, Any], str]:
    form = command_form(stub, text)
    status, _, body = await post_signed(http, running, urllib.parse.urlencode(form).encode())
    assert status == 200 and body == ""  # an empty ack: the modal is the answer
    opened = await stub.wait_call("views.open")
    assert opened.params["trigger_id"] == form["trigger_id"]
    return opened.params["view"], form["response_url"]


def submission(view: dict[str, Any], code: str, problem: str | None = None) -> dict[str, Any]:
    values: dict[str, Any] = {CODE_BLOCK: {CODE_BLOCK: {"type": "plain_text_input", "value": code}}}
    if problem is not None:
        values[PROBLEM_BLOCK] = {PROBLEM_BLOCK: {"type": "plain_text_input", "value": problem}}
    return {"type": "view_submission", "user": {"id": MEMBER, "name": "member"},
            "team": {"id": TEAM}, "api_app_id": "A1", "token": "legacy", "trigger_id": "t-9",
            "view": {**view, "id": "V1", "state": {"values": values}}}  # fmt: skip


async def test_submit_opens_a_modal_for_the_problem_and_its_code_reaches_the_core(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    view, response_url = await open_modal(http, http_slack, stub, "submit fast-power")
    assert view["callback_id"] == MODAL_CALLBACK and len(view["title"]["text"]) <= 24
    code_input = next(b for b in view["blocks"] if b.get("block_id") == CODE_BLOCK)["element"]
    assert code_input["multiline"] and code_input["max_length"] == 3000
    meta = json.loads(view["private_metadata"])
    assert meta["subject"] == "fast-power" and meta["channel"] == CHANNEL

    empty = interactive(submission(view, "   "))
    status, _, body = await post_signed(http, http_slack, empty)
    assert status == 200 and json.loads(body)["response_action"] == "errors"
    assert CODE_BLOCK in json.loads(body)["errors"]

    code = "def my_pow(x, n):\n    return x ** n\n"
    status, _, body = await post_signed(http, http_slack, interactive(submission(view, code)))
    assert status == 200 and body == ""  # the modal closes at once; grading follows
    follow_up = await stub.wait_response()
    assert response_url.rsplit("/", 1)[1] == stub.responses[0][0]
    assert follow_up["blocks"] and follow_up["text"]


async def test_run_opens_a_modal_without_a_problem_and_submit_without_one_asks_for_it(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    view, _ = await open_modal(http, http_slack, stub, "run")
    assert json.loads(view["private_metadata"])["command"] == "run"
    assert [b.get("block_id") for b in view["blocks"]] == [CODE_BLOCK]
    form = command_form(stub, "submit")
    await post_signed(http, http_slack, urllib.parse.urlencode(form).encode())
    asked = (await stub.wait_call("views.open", 2)).params["view"]
    assert [b.get("block_id") for b in asked["blocks"]] == [PROBLEM_BLOCK, CODE_BLOCK]


async def test_the_submit_button_opens_the_modal_for_its_problem(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    click = {"type": "block_actions", "user": {"id": MEMBER, "name": "member"},
             "team": {"id": TEAM}, "channel": {"id": CHANNEL}, "trigger_id": "t-3",
             "response_url": stub.response_url(), "api_app_id": "A1", "token": "legacy",
             "actions": [{"type": "button", "action_id": "submit:fast-power", "block_id": "b",
                          "value": "fast-power", "action_ts": "1"}]}  # fmt: skip
    status, _, _ = await post_signed(http, http_slack, interactive(click))
    assert status == 200
    opened = await stub.wait_call("views.open")
    assert opened.params["trigger_id"] == "t-3"
    assert json.loads(opened.params["view"]["private_metadata"])["subject"] == "fast-power"
