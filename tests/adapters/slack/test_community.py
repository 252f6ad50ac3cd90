"""The community bank on Slack, through slack-bolt in HTTP mode and the local Slack:
`/study import` opens a modal view whose text, or file (downloaded from the local Slack with
the bot token, after its name, type and size are checked), is imported as drafts of the
workspace; an
admin pages the drafts with their buttons, edits one through the modal the Edit button opens
filled with its values (read by running `/drafts edit` at the click), and approves it; the
item is then served and searched in that workspace only. A member is refused on every
click and every form."""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path
from typing import Any

import aiohttp

from adapters.slack.modes import RunningSlack
from tests.adapters.slack.conftest import (
    ADMIN,
    BOT_TOKEN,
    MEMBER,
    block_texts,
    command_form,
    interactive,
    post_signed,
)
from tests.adapters.slack.stub import TEAM, SlackStub
from tests.adapters.slack.test_http import study
from tests.adapters.slack.test_mistakes import inputs, sent
from tests.adapters.slack.test_review import buttons, clicked

REPORT = Path(__file__).parents[2] / "community" / "reports" / "new_questions.txt"
NEW = "s.nccl-tree-ring"
OTHER_TEAM = "T2"


async def study_in(http: aiohttp.ClientSession, slack: RunningSlack, stub: SlackStub,
                   team: str, text: str) -> dict[str, Any]:  # fmt: skip
    """`/study <text>` from a member of another workspace."""
    body = urllib.parse.urlencode({**command_form(stub, text), "team_id": team}).encode()
    status, _, answer = await post_signed(http, slack, body)
    assert status == 200
    return json.loads(answer)  # type: ignore[no-any-return]


async def press(http: aiohttp.ClientSession, slack: RunningSlack, stub: SlackStub,
                button: dict[str, Any], who: str, n: int) -> None:  # fmt: skip
    status, _, _ = await post_signed(http, slack, clicked(button, stub, who, n))
    assert status == 200


def button(message: dict[str, Any], action_id: str) -> dict[str, Any]:
    return next(b for b in buttons(message) if b["action_id"] == action_id)


async def test_a_report_from_the_modal_is_reviewed_through_buttons_and_served_in_its_workspace(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    acked = await study(http, http_slack, stub, "import", MEMBER)
    assert not acked.get("blocks")  # the modal is the answer
    view = (await stub.wait_call("views.open")).params["view"]
    assert view["title"]["text"] == "Import a report"
    text = inputs(view)["text"]
    assert text["block_id"] == "text" and "3,000" in text["label"]["text"]
    assert text["element"]["multiline"] and text["element"]["max_length"] == 3000
    report = sent(view, MEMBER, text=REPORT.read_text("utf-8"))
    status, _, _ = await post_signed(http, http_slack, report)
    assert status == 200
    imported = block_texts((await stub.wait_response(1))["blocks"])
    assert "3 new draft(s)" in imported and f"`{NEW}`" in imported

    refused = await study(http, http_slack, stub, "drafts", MEMBER)
    assert "moderators" in block_texts(refused["blocks"])
    first = await study(http, http_slack, stub, "drafts", ADMIN)
    assert "Draft 1/3" in block_texts(first["blocks"])
    await press(http, http_slack, stub, button(first, "draft-page:2"), ADMIN, 1)
    page = await stub.wait_response(2)
    assert "Draft 2/3: NCCL" in block_texts(page["blocks"])
    assert [b["action_id"] for b in buttons(page)] == [
        f"draft-approve:{NEW}", f"draft-reject:{NEW}", f"draft-edit:{NEW}", "draft-page:1",
        "draft-page:3"]  # fmt: skip

    await press(http, http_slack, stub, button(page, f"draft-edit:{NEW}"), MEMBER, 2)
    assert "moderators" in block_texts((await stub.wait_response(3))["blocks"])
    assert len(stub.called("views.open")) == 1  # no form for a member

    await press(http, http_slack, stub, button(page, f"draft-edit:{NEW}"), ADMIN, 3)
    form = (await stub.wait_call("views.open", 2)).params["view"]
    assert json.loads(form["private_metadata"])["subject"] == f"edit {NEW}"
    fields = inputs(form)
    assert list(fields) == ["title", "title_en", "topics", "difficulty", "kind"]
    values = {name: f["element"].get("initial_value", "") for name, f in fields.items()}
    assert values["title"].startswith("NCCL 的 Tree 算法") and values["kind"] == "qa"
    assert fields["title_en"]["optional"] and not fields["title"]["optional"]
    sneaky = sent(form, MEMBER, **{**values, "title_en": "hijacked"})
    await post_signed(http, http_slack, sneaky)
    assert "moderators" in block_texts((await stub.wait_response(4))["blocks"])
    edit = sent(form, ADMIN, **{**values, "title_en": "NCCL: Tree vs Ring latency",
                                "topics": "collectives, interconnect"})  # fmt: skip
    await post_signed(http, http_slack, edit)
    edited = block_texts((await stub.wait_response(5))["blocks"])
    assert f"Edited `{NEW}`" in edited and "collectives, interconnect" in edited

    await press(http, http_slack, stub, button(page, f"draft-approve:{NEW}"), MEMBER, 4)
    assert "moderators" in block_texts((await stub.wait_response(6))["blocks"])
    await press(http, http_slack, stub, button(page, f"draft-approve:{NEW}"), ADMIN, 5)
    assert f"Approved `{NEW}`" in block_texts((await stub.wait_response(7))["blocks"])

    shown = await study(http, http_slack, stub, f"question {NEW}", MEMBER)
    assert "NCCL: Tree vs Ring latency" in block_texts(shown["blocks"])
    found = await study(http, http_slack, stub, "search Tree 算法", MEMBER)
    assert NEW in block_texts(found["blocks"])
    missing = await study_in(http, http_slack, stub, OTHER_TEAM, f"question {NEW}")
    assert "Tree vs Ring" not in block_texts(missing["blocks"])
    elsewhere = await study_in(http, http_slack, stub, OTHER_TEAM, "search Tree 算法")
    assert NEW not in block_texts(elsewhere.get("blocks", []))


def with_file(view: dict[str, Any], who: str, shared: dict[str, Any]) -> bytes:
    """The import form sent with a file and no text, as Slack sends a file_input's state."""
    state = {"text": {"text": {"type": "plain_text_input", "value": None}},
             "file": {"file": {"type": "file_input", "files": [shared]}}}  # fmt: skip
    return interactive({"type": "view_submission", "user": {"id": who, "name": who.lower()},
                        "team": {"id": TEAM}, "api_app_id": "A1", "token": "legacy",
                        "trigger_id": "t-9",
                        "view": {**view, "id": "V1", "state": {"values": state}}})  # fmt: skip


async def test_the_import_form_takes_a_file_downloaded_with_the_bot_token_within_caps(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    await study(http, http_slack, stub, "import", MEMBER)
    view = (await stub.wait_call("views.open")).params["view"]
    blocks = {b["block_id"]: b for b in view["blocks"] if b["type"] == "input"}
    assert blocks["text"]["optional"] and blocks["file"]["optional"]  # one or the other
    assert blocks["file"]["element"]["type"] == "file_input"
    assert blocks["file"]["element"]["filetypes"] == ["txt", "md"]
    assert json.loads(view["private_metadata"])["required"] == []

    report = stub.share_file("report.md", REPORT.read_bytes(), "text/markdown")
    status, _, body = await post_signed(http, http_slack, with_file(view, MEMBER, report))
    assert status == 200 and body == ""
    imported = block_texts((await stub.wait_response(1))["blocks"])
    assert "3 new draft(s)" in imported and f"`{NEW}`" in imported
    [download] = stub.downloads
    assert download.authorization == f"Bearer {BOT_TOKEN}"

    pdf = stub.share_file("report.pdf", b"%PDF-1.7", "application/pdf")
    big = stub.share_file("long.txt", b"Q: x\n" * 14000, "text/plain")
    for n, shared in enumerate((pdf, big), start=2):
        await post_signed(http, http_slack, with_file(view, MEMBER, shared))
        refused = block_texts((await stub.wait_response(n))["blocks"])
        assert ".txt" in refused and "64 KB" in refused
    assert len(stub.downloads) == 1  # neither was downloaded

    # The token goes to Slack's file host only (here the local Slack's), not another name
    # for the same server, nor anywhere else a forged payload points.
    url = report["url_private_download"].replace("127.0.0.1", "localhost")
    await post_signed(
        http, http_slack, with_file(view, MEMBER, {**report, "url_private_download": url})
    )
    assert "could not be downloaded" in block_texts((await stub.wait_response(4))["blocks"])
    assert len(stub.downloads) == 1
