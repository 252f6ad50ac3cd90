"""Reporting a mistake on Slack, through slack-bolt in HTTP mode and the local Slack: the
button under `/study answer` opens a modal view with the core's fields, its submission files
the report (an empty required field is pointed out in the modal), a workspace admin pages it
with `/study reports` and resolves it through the Resolve modal, and the reporter gets the
note as a direct message in their language. A member who moderates nothing is refused."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from adapters.slack.modes import RunningSlack
from tests.adapters.slack.conftest import ADMIN, MEMBER, block_texts, interactive, post_signed
from tests.adapters.slack.stub import TEAM, SlackStub
from tests.adapters.slack.test_http import study
from tests.adapters.slack.test_review import buttons, clicked

REPORTER = "UZH"  # a member whose Slack speaks Chinese


def sent(view: dict[str, Any], who: str, **values: str) -> bytes:
    state = {name: {name: {"type": "plain_text_input", "value": value}}
             for name, value in values.items()}  # fmt: skip
    return interactive({"type": "view_submission", "user": {"id": who, "name": who.lower()},
                        "team": {"id": TEAM}, "api_app_id": "A1", "token": "legacy",
                        "trigger_id": "t-9",
                        "view": {**view, "id": "V1", "state": {"values": state}}})  # fmt: skip


async def open_form(http: aiohttp.ClientSession, slack: RunningSlack, stub: SlackStub,
                    button: dict[str, Any], who: str, n: int) -> dict[str, Any]:  # fmt: skip
    status, _, _ = await post_signed(http, slack, clicked(button, stub, who, n))
    assert status == 200
    return (await stub.wait_call("views.open", n)).params["view"]  # type: ignore[no-any-return]


def inputs(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {b["block_id"]: b for b in view["blocks"] if b["type"] == "input"}


async def test_a_report_from_a_modal_is_resolved_by_an_admin_and_the_reporter_told(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    shown = await study(http, http_slack, stub, "answer python-gil", REPORTER)
    report = buttons(shown)[-1]
    assert report["action_id"] == "report:python-gil" and report["text"]["text"] == "报告错误"
    view = await open_form(http, http_slack, stub, report, REPORTER, 1)
    assert view["title"]["text"] == "报告错误" and "python-gil" in block_texts(view["blocks"])
    fields = inputs(view)
    assert list(fields) == ["text", "quote"]
    assert (
        fields["text"]["element"]["multiline"] and fields["text"]["element"]["max_length"] == 1000
    )
    assert not fields["text"]["optional"] and fields["quote"]["optional"]
    assert fields["quote"]["element"]["max_length"] == 300
    meta = json.loads(view["private_metadata"])
    assert (meta["command"], meta["subject"]) == ("report", "python-gil")

    status, _, body = await post_signed(http, http_slack, sent(view, REPORTER, text=" "))
    assert status == 200 and json.loads(body)["response_action"] == "errors"
    assert list(json.loads(body)["errors"]) == ["text"]  # the modal stays open, pointed out
    filed = sent(view, REPORTER, text="10 s should be 10 ms <!channel>", quote="大约 10 秒")
    status, _, body = await post_signed(http, http_slack, filed)
    assert status == 200 and body == ""
    thanks = await stub.wait_response()
    assert thanks["response_type"] == "ephemeral" and "版主" in block_texts(thanks["blocks"])

    refused = await study(http, http_slack, stub, "reports", MEMBER)
    assert "moderators" in block_texts(refused["blocks"])
    page = await study(http, http_slack, stub, "reports", ADMIN)
    assert page["response_type"] == "ephemeral"
    text = block_texts(page["blocks"])
    assert "10 s should be 10 ms" in text and "<!channel>" not in text and "大约 10 秒" in text
    resolve = next(b for b in buttons(page) if b["action_id"] == "resolve:1")

    note_form = await open_form(http, http_slack, stub, resolve, ADMIN, 2)
    assert list(inputs(note_form)) == ["note"]
    status, _, _ = await post_signed(http, http_slack, sent(note_form, ADMIN, note="Fixed."))
    assert status == 200
    done = await stub.wait_response(2)
    assert "the reporter has your note" in block_texts(done["blocks"])
    [dm] = await stub.wait_until(lambda: stub.called("chat.postMessage") or None)
    assert dm.params["channel"] == REPORTER
    assert "你报告的错误" in block_texts(dm.params["blocks"])
    assert "Fixed." in block_texts(dm.params["blocks"])


async def test_a_member_who_moderates_nothing_cannot_resolve(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    await study(http, http_slack, stub, "report python-gil the figure is off", MEMBER)
    resolve = {"action_id": "resolve:1", "value": "1", "text": {"type": "plain_text", "text": "R"}}
    view = await open_form(http, http_slack, stub, resolve, MEMBER, 1)
    await post_signed(http, http_slack, sent(view, MEMBER, note="closing it myself"))
    refused = await stub.wait_response()
    assert "moderators" in block_texts(refused["blocks"])
    assert not stub.called("chat.postMessage")
    page = await study(http, http_slack, stub, "reports", ADMIN)
    assert "the figure is off" in block_texts(page["blocks"])  # still open
