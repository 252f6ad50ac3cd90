"""Answering an open question on Slack, through slack-bolt in HTTP mode and the local Slack:
"Answer this" under `/study question` opens a modal view with the core's one field, its
submission thanks the member privately and posts the answer in the channel with "Use as
explanation"; a member who moderates nothing is refused, a workspace admin adopts it, and
`/study answer` then shows it with its author."""

from __future__ import annotations

import re

import aiohttp

from adapters.slack.modes import RunningSlack
from tests.adapters.slack.conftest import ADMIN, CHANNEL, MEMBER, block_texts, post_signed
from tests.adapters.slack.stub import SlackStub
from tests.adapters.slack.test_http import study
from tests.adapters.slack.test_mistakes import inputs, open_form, sent
from tests.adapters.slack.test_review import buttons, press

REPORT = "字节 AI Infra 实习 一面\nQ: 手撕：环形缓冲区\n"


async def test_an_answer_from_a_modal_is_posted_and_adopted_by_an_admin(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub
) -> None:
    shared = await study(http, http_slack, stub, f"import {REPORT}", ADMIN)
    found = re.search(r"`(s\.[a-z0-9.-]+)`", block_texts(shared["blocks"]))
    assert found is not None, shared
    item = found.group(1)
    approved = await study(http, http_slack, stub, f"drafts approve {item}", ADMIN)
    assert "Approved" in block_texts(approved["blocks"])

    shown = await study(http, http_slack, stub, f"question {item}", MEMBER)
    assert "Open question" in block_texts(shown["blocks"])
    answer_this = next(b for b in buttons(shown) if b["action_id"] == f"contribute:{item}")
    assert answer_this["text"]["text"] == "Answer this"
    view = await open_form(http, http_slack, stub, answer_this, MEMBER, 1)
    [field] = inputs(view).values()
    assert field["block_id"] == "text" and field["element"]["multiline"]
    assert field["element"]["max_length"] == 3000 and not field["optional"]
    text = "Keep a **head** and a tail index <!here>"  # Markdown, as Slack shows it: *head*
    await post_signed_view(http, http_slack, sent(view, MEMBER, text=text))
    thanks = await stub.wait_response()
    assert thanks["response_type"] == "ephemeral" and "Thanks" in block_texts(thanks["blocks"])
    [post] = await stub.wait_until(lambda: stub.called("chat.postMessage") or None)
    assert post.params["channel"] == CHANNEL
    posted = block_texts(post.params["blocks"])
    assert "Keep a *head*" in posted and "<!here>" not in posted
    adopt = next(b for b in buttons(post.params) if b["action_id"] == "adopt:1")
    assert adopt["text"]["text"] == "Use as explanation"

    refused = await press(http, http_slack, stub, adopt, MEMBER, 2)
    assert "moderators" in refused
    done = await press(http, http_slack, stub, adopt, ADMIN, 3)
    assert "is now the explanation" in done
    explained = await study(http, http_slack, stub, f"answer {item}", MEMBER)
    assert "Answer by" in block_texts(explained["blocks"])
    assert "Keep a *head*" in block_texts(explained["blocks"])


async def post_signed_view(http: aiohttp.ClientSession, slack: RunningSlack, body: bytes) -> None:
    status, _, answer = await post_signed(http, slack, body)
    assert status == 200 and answer == ""
