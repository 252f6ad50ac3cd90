"""Replies with buttons leave nothing in discord.py's view store: every click is routed by its
custom_id, so a stored view would only grow the process, one per reply, for good."""

from __future__ import annotations

from typing import Any

from bot.types import Action, ActionKind, ChannelRef, Reply
from tests.adapters.discord.conftest import HeldCore, Running
from tests.adapters.discord.stub import CHANNEL_ID, GUILD_ID, message_json
from tests.adapters.discord.test_interactions import COMMAND, COMPONENT, answered, slash


def stored(bot: Running) -> dict[str, Any]:
    """What discord.py keeps per message, per view and per form (its private store: there is
    no public way to count them)."""
    store = bot.client._connection._view_store
    return {"views": store._views, "synced": store._synced_message_views, "forms": store._modals}


EMPTY = {"views": {}, "synced": {}, "forms": {}}


async def test_replies_scheduled_posts_and_clicks_store_no_view(bot: Running) -> None:
    stub = bot.stub
    for qid in ("python-gil", "gpu-memory", "ring-allreduce"):
        posted = await answered(stub, await stub.interact(COMMAND, slash("question", id=qid)))
        assert posted["components"]  # a reply with a button
        old = message_json(CHANNEL_ID, stub.next_id(), posted)
        click = {"custom_id": f"reveal:{qid}", "component_type": 2}
        await answered(stub, await stub.interact(COMPONENT, click, message=old))
    search = await stub.interact(COMMAND, slash("search", query="GIL"), locale="zh-CN")
    assert (await answered(stub, search))["components"]
    reveal = Action(ActionKind.REVEAL_ANSWER, "Show answer", "python-gil")
    await bot.client.adapter.send(ChannelRef("discord", CHANNEL_ID, GUILD_ID),
                                  Reply("daily", actions=(reveal,)))  # fmt: skip
    assert stored(bot) == EMPTY


async def test_a_deferred_reply_with_buttons_stores_no_view(held: tuple[Running, HeldCore]) -> None:
    bot, core = held
    iid = await bot.stub.interact(COMMAND, slash("question", id="python-gil"))
    await bot.stub.wait_for(lambda: bot.stub.callback(iid))  # deferred: "thinking"
    core.release.set()
    assert (await answered(bot.stub, iid))["components"]
    assert stored(bot) == EMPTY
