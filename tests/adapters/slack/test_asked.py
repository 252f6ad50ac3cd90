"""How often a question was asked, on Slack through the real bolt app (HTTP mode) against
the local Slack: the card's fields carry the asked line, and `/study questions sort:asked`
lists the most asked first with a Next button that keeps the order."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from adapters.slack.modes import RunningSlack
from bot.app import App
from bot.content.loader import load_bank
from tests.adapters.slack.stub import SlackStub
from tests.adapters.slack.test_http import study
from tests.asked import write_asked_bank


async def test_the_card_and_the_listing_show_how_often_asked(
    http: aiohttp.ClientSession, http_slack: RunningSlack, stub: SlackStub, bot_app: App,
    content_dir: Path,
) -> None:  # fmt: skip
    write_asked_bank(content_dir)
    await load_bank(bot_app.db, content_dir)
    card = await study(http, http_slack, stub, "question kv-cache-size")
    fields = [f["text"] for b in card["blocks"] if b["type"] == "section"
              for f in b.get("fields", [])]  # fmt: skip
    assert ("*Frequency*\nAsked in 3 reports · ByteDance (first round, second round), "
            "Alibaba (second round)") in fields  # fmt: skip
    listing = await study(http, http_slack, stub, "questions sort:asked")
    text = next(b["text"]["text"] for b in listing["blocks"] if b["type"] == "section")
    assert text.splitlines()[0].startswith("`many-companies` ") and "asked ×6" in text
    buttons = [e for b in listing["blocks"] if b["type"] == "actions" for e in b["elements"]]
    assert [b["value"] for b in buttons] == ["sort=asked;page=2"]
