"""`/me` on Discord: the card goes with the reply as a file (multipart, as discord.py sends
`discord.File`) and the embed shows it, `attachment://card.png` as its image; the weekly
summary's chart goes the same way with the post."""

from __future__ import annotations

import io
from datetime import timedelta

from PIL import Image

from adapters.discord.interactions import PLATFORM
from bot.store.activity import ActKind
from bot.types import ChannelRef, User
from tests.adapters.discord.conftest import Running
from tests.adapters.discord.stub import CHANNEL_ID, GUILD_ID
from tests.adapters.discord.test_interactions import COMMAND, answered, schedule_set, slash
from tests.fakes import FakeClock

EPHEMERAL = 64


async def test_me_shows_the_card_inside_its_embed(bot: Running, clock: FakeClock) -> None:
    member, here = User(PLATFORM, "7001", "alice"), ChannelRef(PLATFORM, CHANNEL_ID, GUILD_ID)
    await bot.app.ledger.record(ActKind.QUIZ, member, here, "python-gil", correct=True,
                                points=10, at=clock.now(), dedupe="quiz:card")  # fmt: skip
    iid = await bot.stub.interact(COMMAND, slash("me"))
    message = await answered(bot.stub, iid)
    assert message["flags"] & EPHEMERAL
    [embed] = message["embeds"]
    assert embed["title"] == "Your progress"
    assert embed["image"]["url"] == "attachment://card.png"
    [sent] = [r for r in bot.stub.requests if r.files]
    assert list(sent.files) == ["card.png"]
    assert sent.path.endswith("/callback")  # the interaction's answer itself
    assert sent.body["data"]["attachments"][0]["filename"] == "card.png"
    with Image.open(io.BytesIO(sent.files["card.png"])) as image:
        assert image.format == "PNG"


async def test_the_weekly_summary_shows_its_chart_inside_its_embed(
    bot: Running, clock: FakeClock
) -> None:
    stub = bot.stub
    await bot.scheduler.start()
    saved = await stub.interact(COMMAND, schedule_set("09:30", summary="weekly"), admin=True)
    await answered(stub, saved)
    member, here = User(PLATFORM, "7001", "alice"), ChannelRef(PLATFORM, CHANNEL_ID, GUILD_ID)
    await bot.app.ledger.record(ActKind.QUIZ, member, here, "python-gil", correct=True,
                                points=10, at=clock.now() - timedelta(days=1),
                                dedupe="quiz:week")  # fmt: skip
    clock.advance(timedelta(minutes=30))  # Monday at the post time: last week's summary
    await bot.scheduler.tick()
    [summary] = [r for r in stub.calls("POST", f"/channels/{CHANNEL_ID}/messages")
                 if r.files]  # fmt: skip
    assert list(summary.files) == ["week.png"]
    assert summary.body["embeds"][0]["title"].startswith("Last week here")
    assert summary.body["embeds"][0]["image"]["url"] == "attachment://week.png"
