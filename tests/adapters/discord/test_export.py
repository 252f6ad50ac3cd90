"""An admin's `/export scores` on Discord: the CSV goes with the interaction's reply as a file
(multipart, as discord.py sends `discord.File`), privately; a member gets a sentence."""

from __future__ import annotations

from adapters.discord.interactions import PLATFORM
from bot.store.activity import ActKind
from bot.types import ChannelRef, User
from tests.adapters.discord.conftest import Running
from tests.adapters.discord.stub import CHANNEL_ID, GUILD_ID
from tests.adapters.discord.test_interactions import COMMAND, answered
from tests.fakes import FakeClock

EPHEMERAL = 64


def export_scores() -> dict[str, object]:
    return {"id": "9", "name": "export", "type": 1,
            "options": [{"name": "scores", "type": 1, "options": []}]}  # fmt: skip


async def test_an_admin_gets_the_csv_as_a_file(bot: Running, clock: FakeClock) -> None:
    alice, here = User(PLATFORM, "7001", "=cmd|' /C calc'!A0"), ChannelRef(PLATFORM, CHANNEL_ID,
                                                                           GUILD_ID)  # fmt: skip
    await bot.app.ledger.record(ActKind.QUIZ, alice, here, "python-gil", correct=True,
                                points=10, at=clock.now(), dedupe="quiz:discord")  # fmt: skip
    iid = await bot.stub.interact(COMMAND, export_scores(), admin=True)
    message = await answered(bot.stub, iid)
    assert message["flags"] & EPHEMERAL
    assert "The scores of 1 member(s), as CSV." in str(message)
    sent = [r for r in bot.stub.requests if r.files]
    assert len(sent) == 1
    assert list(sent[0].files) == ["scores-2200-2026-01-05.csv"]
    text = sent[0].files["scores-2200-2026-01-05.csv"].decode("utf-8-sig")
    assert text.splitlines()[1] == "'=cmd|' /C calc'!A0,7001,10,1,1,0,1"
    assert sent[0].body["attachments"][0]["filename"] == "scores-2200-2026-01-05.csv"


async def test_a_member_gets_a_sentence_and_no_file(bot: Running) -> None:
    iid = await bot.stub.interact(COMMAND, export_scores())
    message = await answered(bot.stub, iid)
    assert "Only admins can export the scores" in str(message)
    assert not [r for r in bot.stub.requests if r.files]
